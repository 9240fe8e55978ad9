#!/usr/bin/env bash
# CI's container test (.ci/run): builds the Dockerfile with buildah on a base image made without a
# registry (scripts/image-base.sh), reports the image's size and layers, then starts it as its
# users would — non-root, read-only root filesystem, a data volume, a tmpfs /tmp — creates a user
# with the image's CLI, syncs the demo stand-ins over HTTP, stops it with SIGTERM and checks it
# exits 0 with its shutdown line. Skips, saying why, where buildah, podman or root is missing.
#
# The server runs with NODE_ENV=development and HYPERLENS_DEMO=1: the production configuration
# refuses demo mode (stand-ins would enter a real inventory), and the bundled stand-ins are the
# only hypervisors a CI machine has. Everything else is the image as shipped.
set -euo pipefail
cd "$(dirname "$0")/.."

node_version=${NODE_VERSION:-24.22.3} # the base image is tagged with its major version
BASE_IMAGE=${BASE_IMAGE:-localhost/hyperlens-node:${node_version%%.*}}
APP_IMAGE=${APP_IMAGE:-localhost/hyperlens:ci}
APP_LAYERS_LIMIT_MB=${APP_LAYERS_LIMIT_MB:-150}
NPM_CACHE=${NPM_CACHE:-$(npm config get cache)}
started=$(date +%s)

skip() { echo "container image test SKIPPED: $*"; exit 0; }
[ "$(id -u)" = 0 ] || skip "not root (buildah's chroot isolation and podman's runc need root here)"
command -v buildah >/dev/null || skip "buildah is not installed (apt-get install buildah debootstrap podman runc)"
command -v podman >/dev/null || skip "podman is not installed (apt-get install podman runc)"
command -v runc >/dev/null || skip "runc is not installed (apt-get install runc; crun refuses this machine's hybrid cgroups)"
if ! buildah inspect --type image "$BASE_IMAGE" >/dev/null 2>&1 && ! command -v debootstrap >/dev/null; then
  skip "no $BASE_IMAGE and no debootstrap to make it (apt-get install debootstrap)"
fi

elapsed() { echo "$(($(date +%s) - started)) s"; }
work=$(mktemp -d "${TMPDIR:-/tmp}/hyperlens-image-test.XXXXXX")
name="hyperlens-image-test-$$"
# podman 4.3 logs an error for every container with a HEALTHCHECK where systemd does not run
# (it schedules checks with systemd timers); the check itself is run by hand below.
pod() { podman --runtime runc "$@" 2> >(grep -v 'systemd connection' >&2); }
cleanup() {
  pod rm -f "$name" >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

BASE_IMAGE=$BASE_IMAGE scripts/image-base.sh
echo "base image ready after $(elapsed)"

if [ "${IMAGE_TEST_BUILD:-1}" = 0 ] && buildah inspect --type image "$APP_IMAGE" >/dev/null 2>&1; then
  echo "IMAGE_TEST_BUILD=0: testing the $APP_IMAGE already built"
else
  # A machine that reaches the registry through a TLS-inspecting proxy trusts its CA through npm's
  # cafile; the build's npm ci gets the same file, mounted into the RUN steps (never into a layer).
  ca_volumes=()
  cafile=$(npm config get cafile)
  if [ -f "$cafile" ]; then
    printf 'cafile=/run/build-ca.pem\n' >"$work/build-npmrc"
    ca_volumes=(--volume "$cafile:/run/build-ca.pem:ro" --volume "$work/build-npmrc:/root/.npmrc:ro")
  fi
  # --layers: an unchanged lockfile reuses the dependency stage; the host's npm cache is mounted
  # into the RUN steps, so `npm ci` downloads only what it has not seen. --format docker keeps the
  # HEALTHCHECK, which the OCI image format has no field for.
  buildah bud --isolation chroot --layers --format docker --quiet --force-rm "${ca_volumes[@]}" \
    --build-arg NODE_IMAGE="$BASE_IMAGE" --volume "$NPM_CACHE:/root/.npm" \
    --build-arg VERSION="$(node -p 'require("./package.json").version')" \
    --build-arg REVISION="$(git rev-parse HEAD 2>/dev/null || true)" \
    --tag "$APP_IMAGE" . >/dev/null
  # --layers keeps each stage's intermediate images as the next run's cache; a day-old one is
  # not the cache of any recent build.
  podman image prune --force --filter until=24h >/dev/null
fi
echo "image $APP_IMAGE built after $(elapsed), labelled version $(podman image inspect \
  --format '{{index .Labels "org.opencontainers.image.version"}} revision {{index .Labels "org.opencontainers.image.revision"}}' "$APP_IMAGE")"

image_bytes() { podman image inspect --format '{{.Size}}' "$1"; }
mb() { echo "$(($1 / 1000000)) MB"; }
base_bytes=$(image_bytes "$BASE_IMAGE")
app_bytes=$(image_bytes "$APP_IMAGE")
layers_bytes=$((app_bytes - base_bytes))
echo "image size: $(mb "$app_bytes") = base $(mb "$base_bytes") (Debian minbase, Node, npm) + app layers $(mb "$layers_bytes"):"
podman history --format '{{.Size}}	{{.CreatedBy}}' "$APP_IMAGE" |
  awk -F'\t' '$1 != "0B" && $1 != "0 B" { sub(/^\/bin\/sh -c #\(nop\) /, "", $2); printf "  %9s  %.90s\n", $1, $2 }'
if [ "$layers_bytes" -gt $((APP_LAYERS_LIMIT_MB * 1000000)) ]; then
  echo "FAIL: the app's layers are $(mb "$layers_bytes"), over the ${APP_LAYERS_LIMIT_MB} MB budget"
  exit 1
fi

# The container as an operator runs it. runc, not crun: crun 1.8 refuses hybrid cgroups. The
# limits are set below this machine's hard limits, which root here may not raise (no
# CAP_SYS_RESOURCE), where podman's defaults would raise them.
data="$work/data"
mkdir "$data" && chown 1000:1000 "$data"
port=$(node -e 'const s = require("node:net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')
run_args=(--read-only --tmpfs /tmp --volume "$data:/data" --network host
  --ulimit nofile=4096:4096 --ulimit nproc=4096:4096 --health-interval disable
  --env HOST=127.0.0.1 --env PORT="$port")
password="image-test-$(node -e 'console.log(require("node:crypto").randomBytes(12).toString("hex"))')"

# The embedded database is opened by one process at a time: the user is created before the server.
printf '%s\n' "$password" | pod run --rm -i "${run_args[@]}" "$APP_IMAGE" \
  hyperlens user create admin --admin --password-stdin
pod run -d --name "$name" "${run_args[@]}" \
  --env NODE_ENV=development --env HYPERLENS_DEMO=1 "$APP_IMAGE" >/dev/null
in_container() { pod exec "$name" "$@"; }

if ! printf '%s\n' "$password" | node scripts/image-smoke.mjs "http://127.0.0.1:$port" admin; then
  pod logs --tail 40 "$name"
  exit 1
fi
# The image's HEALTHCHECK, run once by hand (podman schedules it with systemd timers, absent here).
pod healthcheck run "$name" || { echo "FAIL: the image's HEALTHCHECK reports unhealthy"; exit 1; }
echo "HEALTHCHECK: healthy"
# The release is named alike by the label, the CLI and /healthz (docs/operations.md, "Releases").
# The revision is the label's: HEAD may have moved since the build.
release=$(node -p 'require("./package.json").version')
label() { podman image inspect --format "{{index .Labels \"org.opencontainers.image.$1\"}}" "$APP_IMAGE"; }
label_version=$(label version)
revision=$(label revision)
cli_version=$(in_container hyperlens --version)
health=$(node -e 'fetch(process.argv[1]).then((r) => r.json()).then((h) => console.log(`${h.version} ${h.revision}`))' \
  "http://127.0.0.1:$port/healthz")
if [ "$label_version" != "$release" ] || [ "$cli_version" != "hyperlens $release${revision:+ (revision $revision)}" ] ||
  [ "$health" != "$release ${revision:-null}" ]; then
  echo "FAIL: package.json says $release; the labels say \"$label_version\" ($revision), --version \"$cli_version\", /healthz \"$health\""
  exit 1
fi
echo "release $release: the label, hyperlens --version and /healthz agree (${revision:-no revision})"
# The server is the container's process 1; root is asked to write, so a refusal is the read-only
# mount's (EROFS), not a file permission's.
uid=$(in_container sed -n 's/^Uid:[[:space:]]*\([0-9]*\).*/\1/p' /proc/1/status)
[ -n "$uid" ] && [ "$uid" != 0 ] || { echo "FAIL: the server runs as uid ${uid:-unknown}"; exit 1; }
refusal=$(pod exec --user root "$name" touch /app/written 2>&1 || true)
grep -q "Read-only file system" <<<"$refusal" || { echo "FAIL: root wrote to /app: ${refusal:-no error}"; exit 1; }
echo "the server runs as uid $uid; its root filesystem is read-only; /data holds $(ls "$data" | tr '\n' ' ')"

pod kill --signal TERM "$name" >/dev/null
code=$(timeout 60 podman --runtime runc wait "$name")
logs=$(pod logs "$name" 2>&1)
if [ "$code" != 0 ] || ! grep -q "Hyperlens stopped." <<<"$logs"; then
  echo "FAIL: after SIGTERM the server exited with code $code; its last lines:"
  tail -n 20 <<<"$logs"
  exit 1
fi
echo "SIGTERM: exited 0 after \"$(grep -m1 -o 'Received SIGTERM[^"]*' <<<"$logs" | head -c 80)…\" and \"Hyperlens stopped.\""
echo "container image test passed in $(elapsed)"
