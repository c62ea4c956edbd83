# Shared set-up for scripts/run and scripts/test: each step installs what is missing and
# returns at once when it is already there. Sources only crates.io, npm and Debian's packages.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"

# Each step says when it started (seconds since the script began), so a run's log shows where its time went.
step() { printf '\n==> [%ss] %s\n' "$SECONDS" "$*" >&2; }

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi
}

APT_UPDATED=0
apt_install() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  step "installing Debian packages: ${missing[*]}"
  if [ "$APT_UPDATED" = 0 ]; then as_root apt-get update -qq; APT_UPDATED=1; fi
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
}

ensure_rust() {
  command -v cargo >/dev/null || { echo "cargo is missing: install Rust with rustup first" >&2; exit 1; }
  # A faster linker from Debian, optional (.cargo/config.toml links through scripts/cc-link,
  # which uses mold when present): BENCHMARKS.md, "CI".
  apt_install mold
  if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
    step "adding the wasm32-unknown-unknown target"
    rustup target add wasm32-unknown-unknown
  fi
}

# The wasm-bindgen CLI must match the wasm-bindgen library in Cargo.lock exactly.
ensure_wasm_bindgen() {
  local want
  want="$(awk '/^name = "wasm-bindgen"$/ {getline; gsub(/version = |"/, ""); print; exit}' "$ROOT/Cargo.lock")"
  if ! wasm-bindgen --version 2>/dev/null | grep -q " $want\$"; then
    step "installing wasm-bindgen-cli $want from crates.io (about 3 minutes, once)"
    # Not --locked: the CLI's own lock file names a yanked crate for this version.
    cargo install wasm-bindgen-cli --version "$want" --quiet
  fi
}

# The browser bundles, one per family of pages (app::ui::BrowserBundle): each is the crate
# app/bundles/<name> (assay-bundle-<name>), built into pkg/assay-<name>.js and
# pkg/assay-<name>_bg.wasm. (app/bundles/all, every page in one bundle, is scripts/run's
# stand-in on a fresh clone while these are built.)
BROWSER_BUNDLES="$(cd "$ROOT/app/bundles" && ls -d */ | tr -d / | grep -vx all | tr '\n' ' ')"

# Compressed copies of the site's files beside them (FILE.gz, and in release FILE.br), which the
# server sends to browsers that accept them (tower-http's precompressed files): the annotation
# bundle is about a third of its size gzipped, the time a phone on a slow network waits for it
# (issue 18 item 5). $1 = debug | release, then the files.
precompress() {
  local mode="$1" f
  shift
  if [ "$mode" = release ]; then apt_install brotli gzip; fi
  for f in "$@"; do
    if [ "$mode" = release ]; then
      gzip -9 -n -k -f "$f"
      brotli -q 11 -k -f "$f"
    else
      gzip -6 -n -k -f "$f"
    fi
  done
}

# One bundle's last steps: $1 = debug | release, $2 = name, $3 = the wasm cargo built, $4 = where.
finish_bundle() {
  local mode="$1" name="$2" wasm="$3" out="$4"
  wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name "assay-$name" "$wasm"
  if [ "$mode" = release ] && command -v wasm-opt >/dev/null; then
    wasm-opt -O2 --enable-bulk-memory --enable-nontrapping-float-to-int \
      -o "$out/assay-${name}_bg.wasm" "$out/assay-${name}_bg.wasm"
  fi
  precompress "$mode" "$out/assay-${name}_bg.wasm" "$out/assay-$name.js"
  touch "$out/$name.done"
}

# The bundles are kept under target/site-cache/<mode>-<key>, keyed by everything they are
# built from, and rebuilt only when that changes. Sets SITE_CACHE (once per mode: the key
# hashes every source file). $1 = debug | release
site_cache() {
  local mode="$1" key dir
  if [ -n "${SITE_CACHE:-}" ] && [ "${SITE_CACHE_MODE:-}" = "$mode" ]; then return 0; fi
  if [ "$mode" = release ]; then
    apt_install brotli gzip
    # wasm-opt from npm's binaryen (end2end/package.json), not Debian's older one, which breaks
    # hydration. Used when `npm ci` in end2end/ has installed it.
    if [ -x "$ROOT/end2end/node_modules/.bin/wasm-opt" ]; then PATH="$ROOT/end2end/node_modules/.bin:$PATH"; fi
  fi
  key="$( {
    rustc -V; wasm-bindgen --version; echo "$mode"; echo "with .gz (and .br in release)"
    if [ "$mode" = release ] && command -v wasm-opt >/dev/null; then wasm-opt --version; echo "-O2"; fi
    cd "$ROOT" && find app/src app/core app/stats app/bundles app/Cargo.toml Cargo.toml Cargo.lock .cargo -type f -not -path "*/target/*" -print0 | sort -z | xargs -0 sha256sum
  } | sha256sum | cut -c1-16)"
  SITE_CACHE="$CARGO_TARGET_DIR/site-cache/$mode-$key"
  SITE_CACHE_MODE="$mode"
  for dir in "$CARGO_TARGET_DIR/site-cache/$mode-"*; do
    if [ -d "$dir" ] && [ "$dir" != "$SITE_CACHE" ]; then rm -rf "$dir"; fi
  done
  mkdir -p "$SITE_CACHE"
}

# Whether the named bundles are built in SITE_CACHE.
bundles_built() {
  local name
  for name in "$@"; do [ -f "$SITE_CACHE/$name.done" ] || return 1; done
}

# Builds the named bundles into SITE_CACHE (those not built yet). $1 = debug | release, then names.
build_bundles() {
  local mode="$1" profile=dev profile_dir=debug name todo=() packages=()
  shift
  if [ "$mode" = release ]; then profile=wasm-release; profile_dir=wasm-release; fi
  for name in "$@"; do [ -f "$SITE_CACHE/$name.done" ] || todo+=("$name"); done
  if [ "${#todo[@]}" = 0 ]; then
    step "browser bundles ($mode) are up to date: $*"
    return 0
  fi
  # One cargo command for all: the app crate is compiled once, and the bundles are linked (in
  # release: each optimised as a whole, on one core) side by side.
  step "building the browser bundles ($mode): ${todo[*]}"
  for name in "${todo[@]}"; do packages+=(-p "assay-bundle-$name"); done
  cargo build --target wasm32-unknown-unknown --profile "$profile" "${packages[@]}"
  # Then each bundle's JavaScript glue, its shrinking (wasm-opt: one core each) and its
  # compressed copies, two bundles at a time.
  local jobs=() failed=0 job
  for name in "${todo[@]}"; do
    finish_bundle "$mode" "$name" "$CARGO_TARGET_DIR/wasm32-unknown-unknown/$profile_dir/assay_bundle_$name.wasm" "$SITE_CACHE" &
    jobs+=($!)
    if [ "${#jobs[@]}" -ge 2 ]; then wait "${jobs[0]}" || failed=1; jobs=("${jobs[@]:1}"); fi
  done
  for job in "${jobs[@]}"; do wait "$job" || failed=1; done
  [ "$failed" = 0 ] || { echo "a browser bundle could not be finished (above)" >&2; return 1; }
}

# Copies the named bundles from SITE_CACHE into target/site/pkg, each file by renaming (a
# running server never reads one half written: it names the files by their content's hash,
# app::ui::assets) and each bundle's wasm last: a running server names a family's own bundle in
# its pages only once its wasm is there (app::ui::served_stem), and by then its other files are too.
install_bundles() {
  local pkg="$CARGO_TARGET_DIR/site/pkg" name f
  mkdir -p "$pkg"
  for name in "$@"; do
    # The compressed copies before their files, so that a file is never there beside an old copy.
    for f in "$SITE_CACHE/assay-$name".*.gz "$SITE_CACHE/assay-$name".*.br "$SITE_CACHE/assay-$name".js \
      "$SITE_CACHE/assay-${name}_bg.wasm".* "$SITE_CACHE/assay-${name}_bg.wasm"; do
      if [ -e "$f" ]; then
        cp "$f" "$pkg/.$(basename "$f").new"
        mv -f "$pkg/.$(basename "$f").new" "$pkg/$(basename "$f")"
      fi
    done
  done
}

# Builds the browser bundles (every family bundle, or those named) and the stylesheet into
# target/site, replacing what was there (bundles already built are installed too).
# $1 = debug | release, then bundle names.
build_site() {
  local mode="${1:-debug}" site="$CARGO_TARGET_DIR/site" name
  shift || true
  local wanted=("$@")
  [ "${#wanted[@]}" -gt 0 ] || read -ra wanted <<<"$BROWSER_BUNDLES"
  site_cache "$mode"
  build_bundles "$mode" "${wanted[@]}"
  for name in $BROWSER_BUNDLES; do
    if [[ " ${wanted[*]} " != *" $name "* ]] && bundles_built "$name"; then wanted+=("$name"); fi
  done
  rm -rf "$site/pkg"
  install_bundles "${wanted[@]}"
  # The style sheet as the bundles: its compressed copies first, each file by renaming.
  mkdir -p "$site/.style"
  cp "$ROOT/style/assay.css" "$site/.style/assay.css"
  precompress "$mode" "$site/.style/assay.css"
  # (A copy this mode does not make, left by another build, goes: it would be sent for the file.)
  for name in assay.css.gz assay.css.br assay.css; do
    if [ -e "$site/.style/$name" ]; then mv -f "$site/.style/$name" "$site/$name"; else rm -f "$site/$name"; fi
  done
  rmdir "$site/.style"
  if [ -d "$ROOT/public" ]; then cp -R "$ROOT/public/." "$site/"; fi
}

ensure_node_modules() {
  command -v npm >/dev/null || apt_install nodejs npm
  if [ ! -d "$ROOT/end2end/node_modules/playwright-core" ] || [ "$ROOT/end2end/package-lock.json" -nt "$ROOT/end2end/node_modules/.package-lock.json" ]; then
    step "installing the end-to-end test packages (npm ci)"
    # playwright-core never downloads a browser; the tests drive Debian's /usr/bin/chromium.
    (cd "$ROOT/end2end" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
  fi
}

# Starts a throwaway PostgreSQL cluster on loopback for the tests; sets ASSAY_TEST_POSTGRES_URL.
PG_DIR=""
start_postgres() {
  apt_install postgresql
  local bin port
  bin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  [ -x "$bin/initdb" ] || { echo "PostgreSQL's initdb was not found under /usr/lib/postgresql" >&2; exit 1; }
  PG_DIR="$(mktemp -d /tmp/assay-pg.XXXXXX)"
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  local run=()
  if [ "$(id -u)" = 0 ]; then chown postgres "$PG_DIR"; run=(runuser -u postgres --); fi
  step "starting a throwaway PostgreSQL on 127.0.0.1:$port"
  "${run[@]}" "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=trust -E UTF8 >/dev/null
  "${run[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/log" -w \
    -o "-c listen_addresses=127.0.0.1 -p $port -k $PG_DIR -c fsync=off -c max_connections=200" start >/dev/null
  export ASSAY_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port"
  PG_STOP=("${run[@]}" "$bin/pg_ctl" -D "$PG_DIR/data" -m immediate stop)
}
stop_postgres() {
  if [ -n "$PG_DIR" ]; then
    "${PG_STOP[@]}" >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
    PG_DIR=""
  fi
}
