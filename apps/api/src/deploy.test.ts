// The Dockerfile and the compose file, linted for the rules that matter in production. No
// Dockerfile linter is packaged for Debian or installed here (hadolint is not in Debian), so the
// rules are checked directly; .ci/run also runs hadolint when a machine has it.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { serverEnvironment } from "../../../scripts/server-environment.mjs";
import { LAUNCH_FLAGS } from "./heap-growth.ts";
import { KEEP_ALIVE_TIMEOUT_MS } from "./http/server.ts";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

interface Instruction {
  keyword: string;
  args: string;
}

/** Dockerfile instructions with continuation lines joined and comments dropped. */
function instructions(text: string): Instruction[] {
  const joined = text
    .split("\n")
    .filter((line) => !/^\s*#/.test(line))
    .join("\n")
    .replace(/\\\n/g, " ");
  return joined
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((line) => {
      const [keyword = "", ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
    });
}

/** The instructions of each stage, the ARG defaults before the first FROM substituted. */
function stages(list: Instruction[]) {
  const globalArgs = new Map<string, string>();
  const result: { image: string; name: string | undefined; body: Instruction[] }[] = [];
  for (const instruction of list) {
    if (instruction.keyword === "FROM") {
      const [image = "", as, name] = instruction.args.split(/\s+/);
      const resolved = image.replace(
        /\$\{?(\w+)\}?/g,
        (_, arg: string) => globalArgs.get(arg) ?? "",
      );
      result.push({
        image: resolved,
        name: as?.toUpperCase() === "AS" ? name : undefined,
        body: [],
      });
    } else if (result.length === 0 && instruction.keyword === "ARG") {
      const [arg = "", value = ""] = instruction.args.split("=");
      globalArgs.set(arg, value);
    } else {
      result.at(-1)?.body.push(instruction);
    }
  }
  return result;
}

/** The `services:` of a compose file, each as its block of lines (enough for these checks). */
function composeServices(text: string): Map<string, string> {
  const services = new Map<string, string>();
  let inServices = false;
  let current: string | undefined;
  for (const line of text.split("\n")) {
    if (/^\S/.test(line)) {
      inServices = line.startsWith("services:");
      current = undefined;
      continue;
    }
    const service = inServices ? /^ {2}([\w-]+):\s*$/.exec(line)?.[1] : undefined;
    if (service) {
      current = service;
      services.set(service, "");
    } else if (current) {
      services.set(current, `${services.get(current) ?? ""}${line}\n`);
    }
  }
  return services;
}

const SECRET_NAME = /PASSWORD|SECRET|TOKEN|_KEY\b/i;
const packageVersion: string = JSON.parse(read("package.json")).version;
const isPinned = (image: string) => /:[\w.-]+/.test(image) && !/:latest\b/.test(image);

describe("the Dockerfile", () => {
  const all = stages(instructions(read("Dockerfile")));
  const final = all.at(-1);
  if (!final) throw new Error("the Dockerfile has no FROM");

  it("is multi-stage: the final stage builds nothing and has no build tools", () => {
    expect(all.length).toBeGreaterThanOrEqual(2);
    const runs = final.body.filter((i) => i.keyword === "RUN").map((i) => i.args);
    expect(runs.join("\n")).not.toMatch(/npm (ci|install)|apt-get install|tsc|esbuild|vite/);
    expect(runs.join("\n")).toMatch(/rm -rf .*\/usr\/local\/bin\/npm/);
    expect(final.body.some((i) => i.keyword === "COPY" && i.args.includes("--from="))).toBe(true);
  });

  it("starts the server and the hyperlens command with the launch flags", () => {
    const cmd = JSON.parse(final.body.findLast((i) => i.keyword === "CMD")?.args ?? "[]");
    expect(cmd.slice(0, 1 + LAUNCH_FLAGS.length)).toEqual(["node", ...LAUNCH_FLAGS]);
    expect(cmd.at(-1)).toBe("dist/server.mjs");
    const wrapper = final.body.find((i) => i.args.includes("/usr/local/bin/hyperlens"))?.args;
    expect(wrapper).toContain(`exec node ${LAUNCH_FLAGS.join(" ")} /app/dist/cli.mjs`);
  });

  it("pins every base image to a version, never latest", () => {
    for (const stage of all) expect(isPinned(stage.image), stage.image).toBe(true);
  });

  it("runs as a non-root user", () => {
    const user = final.body.filter((i) => i.keyword === "USER").at(-1)?.args;
    expect(user).toBeDefined();
    expect(user).not.toMatch(/^(root|0)(:|$)/);
  });

  it("checks /healthz, listens on all interfaces and keeps data in a volume", () => {
    const healthcheck = final.body.find((i) => i.keyword === "HEALTHCHECK");
    expect(healthcheck?.args).toContain("/healthz");
    const env = final.body
      .filter((i) => i.keyword === "ENV")
      .map((i) => i.args)
      .join(" ");
    expect(env).toMatch(/HOST=0\.0\.0\.0/);
    expect(env).toMatch(/HYPERLENS_DATA_DIR=\/data/);
    expect(final.body.some((i) => i.keyword === "VOLUME" && i.args.includes("/data"))).toBe(true);
  });

  it("holds no secrets", () => {
    for (const stage of all) {
      for (const i of stage.body.filter((x) => x.keyword === "ENV" || x.keyword === "ARG")) {
        for (const pair of i.args.split(/\s+/)) {
          expect(SECRET_NAME.test(pair.split("=")[0] ?? ""), pair).toBe(false);
        }
      }
    }
    expect(read(".dockerignore")).toMatch(/^\.env$/m);
    expect(read(".dockerignore")).toMatch(/^data$/m);
  });

  it("labels the image with the OCI annotations from its VERSION, REVISION and SOURCE arguments", () => {
    const labelText = final.body
      .filter((i) => i.keyword === "LABEL")
      .map((i) => i.args)
      .join(" ");
    const labels = new Map(
      [...labelText.matchAll(/(org\.opencontainers\.image\.\w+)="([^"]*)"/g)].map(
        ([, key, value]) => [key, value],
      ),
    );
    expect(labels.get("org.opencontainers.image.title")).toBe("Hyperlens");
    expect(labels.get("org.opencontainers.image.version")).toBe(`\${VERSION}`);
    expect(labels.get("org.opencontainers.image.revision")).toBe(`\${REVISION}`);
    expect(labels.get("org.opencontainers.image.source")).toBe(`\${SOURCE}`);
    // An ARG reaches a stage only when the stage declares it again.
    const finalArgs = final.body.filter((i) => i.keyword === "ARG").map((i) => i.args);
    expect(finalArgs).toEqual(expect.arrayContaining(["VERSION", "REVISION", "SOURCE"]));
  });

  it("builds the bundle with REVISION as its revision, and refuses a VERSION that is not package.json's", () => {
    const runs = (all.find((s) => s.name === "build")?.body ?? [])
      .filter((i) => i.keyword === "RUN")
      .map((i) => i.args);
    expect(runs.join("\n")).toContain('HYPERLENS_REVISION="$REVISION" npm run build');
    const check = runs.find((run) => run.includes("$VERSION"));
    expect(check, "a RUN checks VERSION").toBeDefined();
    // The check as the build stage runs it: in the source tree, with node on the path.
    const checkWith = (VERSION: string) =>
      spawnSync("sh", ["-c", check ?? "false"], {
        cwd: root,
        env: { PATH: process.env.PATH ?? "", VERSION },
        encoding: "utf8",
      });
    expect(checkWith(packageVersion).status).toBe(0);
    expect(checkWith("").status).toBe(0);
    const wrong = checkWith("9.9.9");
    expect(wrong.status).not.toBe(0);
    expect(wrong.stderr).toContain("VERSION=9.9.9 is not package.json's version");
  });

  it("installs the production dependencies of every workspace", () => {
    const deps = all.find((s) => s.name === "deps");
    const copied = (deps?.body ?? []).filter((i) => i.keyword === "COPY").map((i) => i.args);
    const manifests = ["apps", "packages"].flatMap((group) =>
      readdirSync(path.join(root, group), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => `${group}/${entry.name}/package.json`),
    );
    for (const manifest of manifests) {
      expect(
        copied.some((c) => c.startsWith(manifest)),
        manifest,
      ).toBe(true);
    }
  });
});

describe("the compose file", () => {
  const text = read("deploy/compose.yaml");
  const services = composeServices(text);

  it("runs PostgreSQL, Redis, two API replicas and a reverse proxy", () => {
    expect([...services.keys()].sort()).toEqual(["api1", "api2", "postgres", "proxy", "redis"]);
  });

  it("gives every service a healthcheck and a restart policy", () => {
    for (const [name, block] of services) {
      expect(block, name).toMatch(/^ {4}healthcheck:/m);
      expect(block, name).toMatch(/^ {4}restart: (unless-stopped|always|on-failure)/m);
    }
  });

  it("pins every image to a version, never latest", () => {
    for (const [name, block] of services) {
      const image = /^ {4}image: (\S+)/m.exec(block)?.[1];
      expect(image, name).toBeDefined();
      expect(isPinned(image ?? ""), `${name}: ${image}`).toBe(true);
    }
  });

  it("takes every secret from the environment, and both replicas share the secret key", () => {
    for (const line of text.split("\n")) {
      const [, key, value] = /^\s+([A-Z_]+):\s*(.+)$/.exec(line) ?? [];
      if (key && value && SECRET_NAME.test(key)) expect(value, key).toMatch(/^\$\{/);
      expect(line).not.toMatch(/postgresql:\/\/[^:]+:[^$@]+@/);
    }
    for (const replica of ["api1", "api2"]) {
      expect(services.get(replica)).toContain("HYPERLENS_SECRET_KEY: ${HYPERLENS_SECRET_KEY:?");
      expect(services.get(replica)).toContain("REDIS_URL: redis://redis:6379");
      expect(services.get(replica)).toContain("DATABASE_URL: postgresql://");
    }
  });

  it("proxies to both replicas and drops one whose /readyz fails", () => {
    const caddyfile = read("deploy/Caddyfile");
    expect(caddyfile).toMatch(/reverse_proxy api1:4000 api2:4000/);
    expect(caddyfile).toContain("health_uri /readyz");
  });

  it("believes X-Forwarded-For on both replicas from the compose network only, where Caddy is", () => {
    const subnet = /^networks:\n {2}default:[\s\S]*?- subnet: (\S+)/m.exec(text)?.[1];
    expect(subnet, "compose.yaml pins its network's subnet").toBeDefined();
    for (const replica of ["api1", "api2"])
      expect(services.get(replica)).toContain(
        `HYPERLENS_TRUSTED_PROXIES: \${HYPERLENS_TRUSTED_PROXIES:-${subnet}}`,
      );
    expect(read("deploy/env.example")).toContain(`HYPERLENS_TRUSTED_PROXIES=${subnet}`);
    // No replica port is published: a peer off that network could not claim to be the proxy.
    for (const replica of ["api1", "api2"])
      expect(services.get(replica)).not.toMatch(/^ {4}ports:/m);
  });

  it("builds the image labelled with the release deploy/env.example names, package.json's", () => {
    expect(services.get("api1")).toMatch(/^ {6}args:\n {8}VERSION: \$\{HYPERLENS_VERSION:-\}\n/m);
    expect(services.get("api1")).toMatch(/^ {8}REVISION: \$\{HYPERLENS_REVISION:-\}$/m);
    expect(read("deploy/env.example")).toContain(`\nHYPERLENS_VERSION=${packageVersion}\n`);
  });

  it("answers /metrics with 404 at the proxy, before it reaches a replica", () => {
    const caddyfile = read("deploy/Caddyfile");
    const matcher = /@(\w+) path ([^\n]+)/.exec(caddyfile);
    expect(matcher?.[2]?.split(/\s+/)).toEqual(["/metrics", "/metrics/*"]);
    expect(caddyfile).toContain(`respond @${matcher?.[1]} 404`);
    // Caddy runs `respond` before `reverse_proxy` whatever their order in the file; the matcher
    // must not be scoped to another route.
    expect(caddyfile).not.toMatch(/route|handle/);
  });

  it("sets HSTS for a year on every answer", () => {
    const hsts = /header Strict-Transport-Security "max-age=(\d+)[^"]*"/.exec(
      read("deploy/Caddyfile"),
    );
    expect(Number(hsts?.[1])).toBeGreaterThanOrEqual(31_536_000);
  });

  it("tells both replicas their public address, the site Caddy serves", () => {
    for (const replica of ["api1", "api2"]) {
      expect(services.get(replica)).toMatch(
        /HYPERLENS_PUBLIC_URL: https:\/\/\$\{HYPERLENS_SITE:-localhost\}/,
      );
    }
    expect(read("deploy/Caddyfile")).toMatch(/^\{\$HYPERLENS_SITE:localhost\} \{/m);
  });

  it("lets Caddy close idle upstream connections before Hyperlens does", () => {
    const keepalive = /transport http \{[^}]*keepalive (\d+)s/.exec(read("deploy/Caddyfile"));
    expect(keepalive, "the Caddyfile sets its upstream keepalive").not.toBeNull();
    expect(Number(keepalive?.[1]) * 1000).toBeLessThan(KEEP_ALIVE_TIMEOUT_MS);
  });
});

describe("npm start", () => {
  it("starts demo stand-ins by default outside production only", () => {
    expect(serverEnvironment({}).HYPERLENS_DEMO).toBe("1");
    expect(serverEnvironment({ NODE_ENV: "development" }).HYPERLENS_DEMO).toBe("1");
    expect(serverEnvironment({ HYPERLENS_DEMO: "0" }).HYPERLENS_DEMO).toBe("0");
    expect(serverEnvironment({ NODE_ENV: "production" }).HYPERLENS_DEMO).toBeUndefined();
    expect(serverEnvironment({ NODE_ENV: "production", PORT: "8080" })).toEqual({
      NODE_ENV: "production",
      PORT: "8080",
    });
  });

  it("bootstrap.mjs starts the server with that environment", () => {
    expect(read("scripts/bootstrap.mjs")).toMatch(/env: serverEnvironment\(process\.env\)/);
  });

  it("starts the server with the launch flags", () => {
    const flags = /const flags = (\[[^\]]*\]);/.exec(read("scripts/bootstrap.mjs"))?.[1];
    expect(JSON.parse(flags ?? "null")).toEqual(LAUNCH_FLAGS);
  });
});
