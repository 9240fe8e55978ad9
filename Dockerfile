# syntax=docker/dockerfile:1
# Hyperlens server image: built in one stage, run from a slim stage that holds only Node, the
# production node_modules and apps/api/dist (bundled server and CLI, migrations, web app).
# Pin the base by digest in your registry mirror for reproducible builds.
ARG NODE_IMAGE=node:24.22.3-bookworm-slim
# The release and the commit it is built from, for the labels below (docs/operations.md,
# "Releases"): VERSION must be the root package.json's version (the build refuses another), REVISION
# is a git commit id (the bundle reports it too), SOURCE the repository's URL. Empty when not given.
ARG VERSION=""
ARG REVISION=""
ARG SOURCE=""

FROM ${NODE_IMAGE} AS build
WORKDIR /src
COPY . .
ARG VERSION
ARG REVISION
# A label naming another release than the one /healthz and --version report would mislead every
# upgrade decided by it.
RUN test -z "$VERSION" || test "$VERSION" = "$(node -p 'require("./package.json").version')" \
  || { echo "VERSION=$VERSION is not package.json's version" >&2; exit 1; }
# npm ci runs the postinstall that generates the Prisma client, then turbo builds web and api.
RUN npm ci --no-audit --no-fund && HYPERLENS_REVISION="$REVISION" npm run build

FROM ${NODE_IMAGE} AS deps
WORKDIR /src
COPY package.json package-lock.json ./
COPY apps/api/package.json apps/api/
COPY apps/web/package.json apps/web/
COPY packages/db/package.json packages/db/
COPY packages/hyper-http/package.json packages/hyper-http/
COPY packages/proxmox/package.json packages/proxmox/
COPY packages/shared/package.json packages/shared/
COPY packages/standins/package.json packages/standins/
COPY packages/sync/package.json packages/sync/
COPY packages/vcd/package.json packages/vcd/
COPY packages/vcenter/package.json packages/vcenter/
# The generated client is bundled into dist, so no install script (prisma generate) is needed;
# the workspace links point at sources the final image does not have, hence their removal.
# --omit=optional drops the Prisma CLI and TypeScript (with effect, ~120 MB), which the lockfile
# holds only as @prisma/client's optional peers, and two optional type/edge packages. The client's
# runtime ships a WASM engine and compiler for every database and every platform: the server loads
# only the PostgreSQL query compiler (engineType "client"), so the others, the source maps and the
# type declarations go (~70 MB). Only the server's workspace is installed: the web app and its
# GraphiQL page are bundled into dist/web by Vite, so React, urql and Monaco (101 MB) stay out.
# The container test (scripts/image-test.sh) starts what is left.
RUN npm ci --omit=dev --omit=optional --ignore-scripts --no-audit --no-fund --workspace @hyperlens/api \
  && rm -rf node_modules/@hyperlens node_modules/.bin \
    node_modules/@prisma/client/runtime/query_engine_bg.* \
    node_modules/@prisma/client/runtime/query_compiler_bg.cockroachdb.* \
    node_modules/@prisma/client/runtime/query_compiler_bg.mysql.* \
    node_modules/@prisma/client/runtime/query_compiler_bg.sqlite.* \
    node_modules/@prisma/client/runtime/query_compiler_bg.sqlserver.* \
  && find node_modules -type f \( -name '*.map' -o -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' \) -delete

FROM ${NODE_IMAGE}
ENV NODE_ENV=production \
  HOST=0.0.0.0 \
  PORT=4000 \
  HYPERLENS_DATA_DIR=/data
WORKDIR /app
# No package manager at run time: nothing in the image installs or builds anything.
RUN rm -rf /usr/local/lib/node_modules/npm /usr/local/lib/node_modules/corepack \
    /usr/local/bin/npm /usr/local/bin/npx /usr/local/bin/corepack \
  && mkdir -p /data && chown node:node /data \
  && printf '#!/bin/sh\nexec node --max-semi-space-size=8 --liftoff-only /app/dist/cli.mjs "$@"\n' > /usr/local/bin/hyperlens \
  && chmod 755 /usr/local/bin/hyperlens
COPY --from=deps /src/node_modules ./node_modules
COPY --from=build /src/apps/api/dist ./dist
ARG VERSION
ARG REVISION
ARG SOURCE
# OCI annotations (image-spec annotations.md). No licence is declared in the repository, so none is
# claimed; .created is left out, as the image's configuration already records when it was built.
LABEL org.opencontainers.image.title="Hyperlens" \
  org.opencontainers.image.description="Read-only VM inventory over Proxmox VE, VMware Cloud Director and vCenter" \
  org.opencontainers.image.version="${VERSION}" \
  org.opencontainers.image.revision="${REVISION}" \
  org.opencontainers.image.source="${SOURCE}"
USER node
VOLUME ["/data"]
EXPOSE 4000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4000) + '/healthz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# --max-semi-space-size, --liftoff-only: apps/api/src/heap-growth.ts (LAUNCH_FLAGS).
CMD ["node", "--max-semi-space-size=8", "--liftoff-only", "--enable-source-maps", "dist/server.mjs"]
