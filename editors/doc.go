// Package editors holds wisp's editor integrations — vscode/ (the VS Code
// extension), nvim/ (the Neovim plugin), helix/ (a languages.toml snippet),
// emacs/ (lsp-mode and eglot set-up) — and the tests that drive the real
// editors against a real wisp and a scripted loopback model server.
//
// The editors come from install/install.sh. A test whose editor is missing
// is skipped with a loud message, or fails when CI=true.
package editors
