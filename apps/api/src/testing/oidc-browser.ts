// A browser, as far as a sign-in needs one: follows redirects by hand, keeps cookies per host and
// fills the test provider's own login and consent forms.

/** Cookies per host, as a browser keeps them (attributes ignored; tests run on loopback). */
export class CookieJar {
  private readonly byHost = new Map<string, Map<string, string>>();

  store(url: string, response: Response) {
    const host = new URL(url).host;
    const jar = this.byHost.get(host) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const [name = "", ...value] = pair.split("=");
      const isExpired = /max-age=0/i.test(line);
      if (isExpired) jar.delete(name.trim());
      else jar.set(name.trim(), value.join("="));
    }
    this.byHost.set(host, jar);
  }

  header(url: string): string {
    const jar = this.byHost.get(new URL(url).host);
    return [...(jar ?? new Map()).entries()].map(([k, v]) => `${k}=${v}`).join("; ");
  }

  get(url: string, name: string): string | undefined {
    return this.byHost.get(new URL(url).host)?.get(name);
  }

  delete(url: string, name: string) {
    this.byHost.get(new URL(url).host)?.delete(name);
  }
}

/** One request with the jar's cookies, no redirect followed. */
export async function browserFetch(
  jar: CookieJar,
  url: string,
  init: { method?: string; body?: URLSearchParams } = {},
): Promise<Response> {
  const cookie = jar.header(url);
  const response = await fetch(url, {
    method: init.method ?? "GET",
    redirect: "manual",
    headers: {
      ...(cookie ? { cookie } : {}),
      ...(init.body ? { "content-type": "application/x-www-form-urlencoded" } : {}),
      "user-agent": "hyperlens-oidc-test",
    },
    body: init.body,
  });
  jar.store(url, response);
  return response;
}

/** The step the driver stopped at: Hyperlens's callback, not yet requested. */
export interface PendingCallback {
  url: string;
}

/**
 * Goes from Hyperlens's start address (or the provider's address it answered with, given Hyperlens's
 * origin) through the provider's login and consent pages, and stops
 * at the redirect back to Hyperlens's callback (which the caller requests, or alters first).
 */
export async function signInAtProvider(
  jar: CookieJar,
  startUrl: string,
  login: string,
  hyperlensOrigin = new URL(startUrl).origin,
): Promise<PendingCallback> {
  let url = startUrl;
  for (let step = 0; step < 20; step += 1) {
    const response = await browserFetch(jar, url);
    if (response.status >= 300 && response.status < 400) {
      const location = new URL(response.headers.get("location") ?? "", url).href;
      await response.body?.cancel();
      if (new URL(location).origin === hyperlensOrigin && location.includes("/callback"))
        return { url: location };
      if (new URL(location).origin === hyperlensOrigin)
        throw new Error(`Hyperlens answered the start with ${location}`);
      url = location;
      continue;
    }
    const html = await response.text();
    const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
    if (response.status !== 200 || !action)
      throw new Error(`The provider answered ${response.status}: ${html.slice(0, 300)}`);
    const prompt = /name="prompt" value="([^"]+)"/.exec(html)?.[1];
    const body = new URLSearchParams({ prompt: prompt ?? "" });
    if (prompt === "login") {
      body.set("login", login);
      body.set("password", "any");
    }
    const posted = await browserFetch(jar, new URL(action, url).href, { method: "POST", body });
    await posted.body?.cancel();
    url = new URL(posted.headers.get("location") ?? "", url).href;
  }
  throw new Error("The sign-in did not come back to Hyperlens within 20 steps.");
}
