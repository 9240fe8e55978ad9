// `npm run bench`: every benchmark, one after another; each prints its own figures.
import { benchStartup } from "./startup.ts";

await benchStartup();
