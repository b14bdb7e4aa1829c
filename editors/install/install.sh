#!/bin/sh
# Installs the real editors that the tests in ./editors drive:
#   Neovim 0.12.4 (Debian sid, unpacked next to its own libraries),
#   Neovim 0.7.2 (Debian stable), code-server 4.100.3 (VS Code 1.100.3)
#   with chromium-headless-shell, Emacs 28 with lsp-mode 10 and go-mode,
#   and Helix 25.07 (Debian sid, unpacked next to its own libraries).
#
# Idempotent: each step leaves a stamp in the cache and is skipped when the
# stamp is there. Runs as root (it uses apt-get). Everything that is not a
# Debian stable package goes into ${WISP_EDITORS_DIR:-$HOME/.cache/wisp-editors}.
# Each step prints how long it took.
set -eu

CACHE=${WISP_EDITORS_DIR:-$HOME/.cache/wisp-editors}
mkdir -p "$CACHE"
CACHE=$(cd "$CACHE" && pwd)
export DEBIAN_FRONTEND=noninteractive

say() { printf 'install: %s\n' "$*" >&2; }

# timed NAME CMD...: runs CMD unless CACHE/.done-NAME exists, then stamps it.
timed() {
	name=$1
	shift
	if [ -e "$CACHE/.done-$name" ]; then
		say "$name: already installed"
		return 0
	fi
	start=$(date +%s)
	"$@"
	touch "$CACHE/.done-$name"
	say "$name: $(($(date +%s) - start))s"
}

STABLE_PKGS="neovim emacs-nox patchelf tmux ripgrep chromium-headless-shell
build-essential pkg-config libx11-dev libxkbfile-dev libsecret-1-dev libkrb5-dev
elpa-dash elpa-s elpa-ht elpa-spinner elpa-markdown-mode elpa-lv elpa-eglot
elpa-go-mode"

apt_stable() {
	missing=
	for p in $STABLE_PKGS; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
	done
	if [ -n "$missing" ]; then
		apt-get update -qq
		# shellcheck disable=SC2086
		apt-get install -y -qq --no-install-recommends $missing >/dev/null
	fi
}

# A private apt state for the sid suite, so sid packages can be downloaded
# without touching the system's own sources or package database.
SID=$CACHE/sid-apt
sid_apt() {
	apt-get -o Dir::State::Lists="$SID/lists" -o Dir::Cache="$SID/cache" \
		-o Dir::Etc::SourceList="$SID/sources.list" -o Dir::Etc::SourceParts=/nonexistent \
		-o Debug::NoLocking=1 -o APT::Sandbox::User=root "$@"
}

sid_update() {
	mkdir -p "$SID/lists/partial" "$SID/cache/archives/partial"
	uri=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
	[ -n "$uri" ] || uri=http://deb.debian.org/debian
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $uri sid main" >"$SID/sources.list"
	sid_apt -qq update
}

# sid_unpack DEST PKG...: downloads PKG... from sid and unpacks them into DEST.
sid_unpack() {
	dest=$1
	shift
	debs=$CACHE/debs
	mkdir -p "$debs" "$dest"
	(cd "$debs" && sid_apt -qq download "$@")
	for p in "$@"; do
		for f in "$debs/${p}"_*.deb; do
			dpkg-deb -x "$f" "$dest"
		done
	done
}

NVIM12=$CACHE/nvim-0.12
nvim12() {
	rm -rf "$NVIM12"
	sid_unpack "$NVIM12" neovim neovim-runtime libc6 libgcc-s1 libluajit-5.1-2 \
		libluajit-5.1-common libtree-sitter0.26 libunibilium4 libutf8proc3 libuv1t64 lua-lpeg lua-luv
	lib=$NVIM12/usr/lib/x86_64-linux-gnu
	patchelf --set-interpreter "$lib/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$lib" "$NVIM12/usr/bin/nvim"
	# The binary finds its runtime through VIMRUNTIME; a wrapper sets it.
	cat >"$CACHE/nvim-0.12.4" <<EOF
#!/bin/sh
VIMRUNTIME=$NVIM12/usr/share/nvim/runtime exec $NVIM12/usr/bin/nvim "\$@"
EOF
	chmod +x "$CACHE/nvim-0.12.4"
	"$CACHE/nvim-0.12.4" --version | head -1
}

LSPMODE=$CACHE/emacs-lsp-mode
lsp_mode() {
	rm -rf "$LSPMODE"
	# Stable has the other dependencies (apt_stable); it lacks f >= 0.21.
	sid_unpack "$LSPMODE" elpa-lsp-mode elpa-f
	ls -d "$LSPMODE"/usr/share/emacs/site-lisp/elpa-src/lsp-mode-*
}

HELIX=$CACHE/helix
helix() {
	rm -rf "$HELIX"
	sid_unpack "$HELIX" hx libc6 libgcc-s1
	lib=$HELIX/usr/lib/x86_64-linux-gnu
	patchelf --set-interpreter "$lib/ld-linux-x86-64.so.2" --force-rpath --set-rpath "$lib" "$HELIX/usr/lib/hx/hx"
	# The binary finds its runtime through HELIX_RUNTIME; a wrapper sets it.
	cat >"$CACHE/hx-25.07" <<EOF
#!/bin/sh
HELIX_RUNTIME=$HELIX/usr/lib/hx/runtime exec $HELIX/usr/lib/hx/hx "\$@"
EOF
	chmod +x "$CACHE/hx-25.07"
	"$CACHE/hx-25.07" --version
}

CODESERVER=$CACHE/code-server
code_server() {
	rm -rf "$CODESERVER" "$CACHE/code-server-pack"
	mkdir -p "$CACHE/code-server-pack"
	(cd "$CACHE/code-server-pack" && npm pack -q code-server@4.100.3 >/dev/null)
	tar -xzf "$CACHE"/code-server-pack/code-server-4.100.3.tgz -C "$CACHE/code-server-pack"
	mv "$CACHE/code-server-pack/package" "$CODESERVER"
	rm -rf "$CACHE/code-server-pack"
	export npm_config_unsafe_perm=true npm_config_audit=false npm_config_fund=false npm_config_update_notifier=false
	(cd "$CODESERVER" && npm install -q --omit=dev --ignore-scripts >/dev/null)
	(cd "$CODESERVER/lib/vscode" && npm install -q --omit=dev --ignore-scripts >/dev/null)
	if [ -f "$CODESERVER/lib/vscode/extensions/package.json" ]; then
		(cd "$CODESERVER/lib/vscode/extensions" && npm install -q --omit=dev --ignore-scripts >/dev/null)
	fi
	(cd "$CODESERVER" && npm rebuild -q argon2 >/dev/null)
	mkdir -p "$CODESERVER/lib/vscode/node_modules/@vscode/ripgrep/bin"
	cp /usr/bin/rg "$CODESERVER/lib/vscode/node_modules/@vscode/ripgrep/bin/rg"
	# node-pty's dev-only build step fails harmlessly.
	(cd "$CODESERVER/lib/vscode" && npm rebuild -q >/dev/null 2>&1) || true
	ln -sfn node_modules "$CODESERVER/lib/vscode/node_modules.asar"
	ln -sfn code-linux.sh "$CODESERVER/lib/vscode/bin/remote-cli/code-server"
	ln -sfn browser-linux.sh "$CODESERVER/lib/vscode/bin/helpers/browser.sh"
	node "$CODESERVER/out/node/entry.js" --version | head -1
}

# The VS Code extension's own build tools (tsc, vsce), so the tests can
# compile and package editors/vscode offline.
VSCODE_EXT=$(cd "$(dirname "$0")/../vscode" && pwd)
vscode_ext_deps() {
	(cd "$VSCODE_EXT" && npm ci -q --no-audit --no-fund >/dev/null)
}

total_start=$(date +%s)
# Always: it installs only what is missing, so a package added to the
# list reaches machines set up before.
apt_stable
timed sid-update sid_update
timed nvim-0.12.4 nvim12
timed lsp-mode-10 lsp_mode
timed helix-25.07 helix
timed code-server-4.100.3 code_server
if [ ! -d "$VSCODE_EXT/node_modules" ]; then
	rm -f "$CACHE/.done-vscode-ext-deps"
fi
timed vscode-ext-deps vscode_ext_deps
say "all editors ready in $CACHE ($(($(date +%s) - total_start))s)"
