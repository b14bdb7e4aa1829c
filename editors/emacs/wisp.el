;;; wisp.el --- wisp language server for lsp-mode and eglot -*- lexical-binding: t -*-

;; Version: 0.1.0
;; Package-Requires: ((emacs "27.1"))
;; Keywords: languages, tools, convenience

;;; Commentary:

;; wisp is a language server that puts a fast code model in the editor:
;; ghost-text completions while you type and quick edits of a region.
;;
;; lsp-mode (10.0 or newer): wisp runs as an add-on server next to the
;; language's usual one, and lsp-mode shows its suggestions as ghost text
;; (`lsp-inline-completion-mode'; Tab or C-<return> accepts, C-g dismisses).
;; wisp.el asks for ghost text right after each change, once Emacs has
;; read the keys that wait (`wisp-inline-completion-delay' adds a pause),
;; rather than after lsp-mode's own pauses (`lsp-idle-delay' plus
;; `lsp-inline-completion-idle-delay').
;;
;;   (require 'lsp-mode-autoloads)
;;   (require 'wisp)
;;   (setq lsp-auto-guess-root t)
;;   (add-hook 'prog-mode-hook #'lsp-deferred)
;;
;; eglot (one server per buffer): wisp's suggestion comes through
;; completion-at-point.  `wisp-eglot-setup' registers wisp for
;; `wisp-eglot-modes', replacing their usual server in eglot.
;;
;;   (require 'wisp)
;;   (wisp-eglot-setup)
;;   (add-hook 'python-mode-hook #'eglot-ensure)
;;
;; `wisp-quick-edit' rewrites the region (or the code at point) following
;; an instruction, with either client.

;;; Code:

(require 'cl-lib)
(require 'subr-x)

(defgroup wisp nil
  "The wisp code-model language server."
  :group 'tools
  :prefix "wisp-")

(defcustom wisp-program "wisp"
  "The wisp executable (run `go install ./cmd/wisp' in the wisp repository)."
  :type 'string)

(defcustom wisp-args '("serve")
  "Arguments for `wisp-program'."
  :type '(repeat string))

(defcustom wisp-initialization-options nil
  "wisp's settings, as a plist shaped like its config.toml.
For example (:model (:provider \"openai-ws\" :endpoint \"wss://host/v1/responses\"
:model \"m\" :apiKeyEnv \"MY_KEY\")).  nil uses wisp's own configuration
\(config.toml, WISP_* environment).

The settings that decide where code and keys go (see
`wisp--trusted-settings') are passed on wisp's command line, which wisp
trusts, and only from this variable's global value: a directory-local
value cannot change them.  The rest are sent as initializationOptions,
which wisp treats as workspace settings."
  :type 'sexp)

(defconst wisp--trusted-settings
  '("model.provider" "model.endpoint" "model.apiKeyEnv" "model.allowInsecure"
    "edit.model.provider" "edit.model.endpoint" "edit.model.apiKeyEnv"
    "edit.model.allowInsecure" "trustedEndpoints")
  "Settings wisp takes only from its config file, environment or flags.")

(defcustom wisp-major-modes '(prog-mode)
  "Major modes (and modes derived from them) where lsp-mode starts wisp."
  :type '(repeat symbol))

(defcustom wisp-eglot-modes '(python-mode go-mode rust-mode js-mode typescript-mode c-mode c++-mode)
  "Major modes for which `wisp-eglot-setup' makes wisp eglot's server."
  :type '(repeat symbol))

(defcustom wisp-inline-completion-delay 0
  "Seconds of idle time after a change before wisp.el asks for ghost text.
With the default, 0, it asks as soon as Emacs has read every key that
is waiting: the last key of a burst (a paste, or keys a terminal hands
over one at a time) asks once, and a typed key asks at once.  wisp
cancels a request that a later change supersedes, so a pause here only
adds to the time before ghost text shows."
  :type 'number)

(defvar lsp-inline-completion-active-map)
(declare-function lsp-inline-completion-accept "lsp-inline-completion")

(defun wisp--bind-accept-keys (old new)
  "Make the keys NEW, no longer OLD, accept ghost text in lsp-mode.
They are bound in `lsp-inline-completion-active-map' once it exists;
a key of OLD is unbound only if it still accepts and NEW lacks it."
  (when (boundp 'lsp-inline-completion-active-map)
    (dolist (key old)
      (when (and (not (member key new))
                 (eq (lookup-key lsp-inline-completion-active-map (kbd key))
                     #'lsp-inline-completion-accept))
        (define-key lsp-inline-completion-active-map (kbd key) nil)))
    (dolist (key new)
      (define-key lsp-inline-completion-active-map (kbd key) #'lsp-inline-completion-accept))))

(defcustom wisp-accept-keys '("TAB")
  "Keys that accept the ghost text lsp-mode shows, besides its C-<return>.
A terminal sends nothing (or RET) for C-<return>, so there Tab is the
key that reaches Emacs.  The keys act only while ghost text shows; nil
leaves lsp-mode's keys alone.  They are bound once, when both wisp.el
and lsp-mode's inline completion are loaded: set this before loading
wisp.el, or with Customize (`customize-set-variable'), which rebinds."
  :type '(repeat string)
  :set (lambda (symbol keys)
         (wisp--bind-accept-keys (and (boundp symbol) (default-value symbol)) keys)
         (set-default symbol keys)))

(defvar wisp-status nil
  "The state in wisp's last wisp/status notification: idle, generating, error...")

(defconst wisp--healthy-states '("idle" "generating" "ready" "starting")
  "States of wisp/status that mean the model works.")

(defvar wisp--told-problem nil
  "Non-nil when the user was last told that the model is unavailable.")

(defun wisp--split-options (plist &optional prefix)
  "Split the settings PLIST into (TRUSTED . REST).
TRUSTED is a list of (NAME . VALUE), one for each setting of
`wisp--trusted-settings' in PLIST; REST is PLIST without them.  PREFIX
is the dotted name of PLIST itself, for nested calls."
  (let (trusted rest)
    (while plist
      (let* ((key (pop plist))
             (value (pop plist))
             (name (concat prefix (substring (symbol-name key) 1))))
        (cond
         ((member name wisp--trusted-settings)
          (push (cons name value) trusted))
         ((and (consp value) (keywordp (car value)))
          (let ((inner (wisp--split-options value (concat name "."))))
            (setq trusted (append (car inner) trusted))
            (when (cdr inner)
              (setq rest (append rest (list key (cdr inner)))))))
         (t (setq rest (append rest (list key value)))))))
    (cons trusted rest)))

(defun wisp--setting-string (value)
  "VALUE as `wisp serve --set' takes it."
  (cond ((eq value t) "true")
        ((memq value '(nil :json-false :false)) "false")
        ((stringp value) value)
        ((or (vectorp value) (listp value)) (mapconcat #'wisp--setting-string value ","))
        (t (format "%s" value))))

(defun wisp--command ()
  "The command line that starts wisp.
It comes from the global values of the options, never directory-local
ones, and carries the trusted settings as --set flags."
  (append (list (default-value 'wisp-program))
          (default-value 'wisp-args)
          (mapcan (lambda (setting)
                    (list "--set" (format "%s=%s" (car setting) (wisp--setting-string (cdr setting)))))
                  (car (wisp--split-options (default-value 'wisp-initialization-options))))))

(defun wisp--initialization-options ()
  "The initializationOptions: `wisp-initialization-options' without the trusted settings."
  (cdr (wisp--split-options wisp-initialization-options)))

(defun wisp--with-status (options)
  "OPTIONS with wisp/status on, unless they say otherwise.
`wisp--status' shows wisp/status in the echo area and the mode line;
without it wisp would tell the model's state with window/showMessage,
which the echo area loses at the next message."
  (let ((options (copy-sequence options)))
    (unless (plist-member options :status)
      (setq options (plist-put options :status t)))
    options))

(defun wisp--lsp-initialization-options ()
  "The initializationOptions for lsp-mode: wisp/status and streaming on.
wisp.el draws wisp/inlineCompletionPartial (`wisp--on-partial').  Either
is left as `wisp-initialization-options' sets it."
  (let ((options (wisp--with-status (wisp--initialization-options))))
    (unless (plist-member options :streaming)
      (setq options (plist-put options :streaming t)))
    options))

(defvar wisp--told nil
  "The last thing `wisp--tell' told the user.")

(defun wisp--tell (text)
  "Show TEXT in the echo area, on one line, and log it once.
If another message has taken its place by the time Emacs is next idle
for a second (lsp-mode's own, while it starts), show it again, unlogged."
  (setq wisp--told text)
  (let ((message-truncate-lines t))
    (message "%s" text))
  (run-with-idle-timer 1 nil #'wisp--tell-again text))

(defun wisp--tell-again (text)
  "Show TEXT again unless it is still shown or no longer the news."
  (when (and (equal text wisp--told) (not (equal (current-message) text)))
    (let ((message-truncate-lines t)
          (message-log-max nil))
      (message "%s" text))))

(defun wisp--on-status (_workspace params)
  "Record a wisp/status notification PARAMS from lsp-mode."
  (wisp--status (gethash "state" params) (gethash "message" params)))

(defun wisp--status (state message)
  "Record wisp's STATE (and its MESSAGE) for the mode line.
The user hears once that the model is unavailable and once that it is
back, never on every keystroke: wisp sends a status with each request."
  (let ((problem (not (member state wisp--healthy-states))))
    (setq wisp-status state)
    (force-mode-line-update t)
    (unless (or (equal state "generating") (eq problem wisp--told-problem))
      (setq wisp--told-problem problem)
      (wisp--tell (if problem
                      (format "wisp: %s" (if (and message (not (string-empty-p message))) message state))
                    "wisp: the model is back")))))

(defun wisp-mode-line ()
  "A short word for the mode line: empty while the model works."
  (cond ((equal wisp-status "generating") " wisp…")
        ((or (null wisp-status) (member wisp-status wisp--healthy-states)) "")
        (t (format " wisp:%s" wisp-status))))

(add-to-list 'mode-line-misc-info '(:eval (wisp-mode-line)) t)

;;;; lsp-mode

(declare-function lsp-register-client "lsp-mode")
(declare-function make-lsp-client "lsp-mode")
(declare-function lsp-stdio-connection "lsp-mode")
(declare-function lsp-send-execute-command "lsp-mode")
(declare-function lsp--text-document-identifier "lsp-mode")
(declare-function lsp--cur-position "lsp-mode")
(declare-function lsp--region-to-range "lsp-mode")
(declare-function lsp--buffer-content "lsp-mode")
(declare-function lsp-request-async "lsp-mode")
(declare-function lsp-inline-completion--params "lsp-inline-completion")
(declare-function lsp-inline-completion--parse-items "lsp-inline-completion")
(declare-function lsp-inline-completion-show-overlay "lsp-inline-completion")
(declare-function lsp-inline-completion--active-p "lsp-inline-completion")
(declare-function lsp-inline-completion--clear-overlay "lsp-inline-completion")
(declare-function lsp-make-inline-completion-item "lsp-protocol")
(declare-function lsp-make-range "lsp-protocol")
(declare-function lsp--buffer-uri "lsp-mode")
(declare-function lsp--position-to-point "lsp-mode")
(defvar lsp--cur-version)
(defvar lsp-inline-completion-inhibit-predicates)
(defvar lsp-inline-completion--items)
(defvar lsp-inline-completion--current)
(defvar lsp-inline-completion--start-point)
(declare-function lsp-inline-completion--after-change "lsp-inline-completion")
(declare-function lsp-workspaces "lsp-mode")
(declare-function lsp--workspace-client "lsp-mode")
(declare-function lsp--client-server-id "lsp-mode")
(defvar lsp--buffer-workspaces)
(defvar lsp-inline-completion-mode)

(defvar-local wisp--tick nil
  "`buffer-chars-modified-tick' when ghost text was last asked for.")

(defvar-local wisp--dismissed nil
  "`buffer-chars-modified-tick' when the user last dismissed ghost text.
Streamed pieces and answers for that same text stay hidden.")

(defun wisp--dismiss ()
  "Remember that the user dismissed the ghost text of this buffer's text."
  (setq wisp--dismissed (buffer-chars-modified-tick)))

(defvar-local wisp--timer nil
  "The pending request for ghost text, or nil.")

(defun wisp--lsp-buffer-p ()
  "Non-nil when wisp serves the current buffer through lsp-mode."
  (cl-some (lambda (w) (eq (lsp--client-server-id (lsp--workspace-client w)) 'wisp))
           (lsp-workspaces)))

(defun wisp--ask (buffer point)
  "Ask for ghost text in BUFFER if it is current and point is still POINT.
The request is asynchronous: lsp-mode's own (`lsp-inline-completion-display')
waits for the reply by throwing out of the process filter, which drops the
messages that came in the same read as the reply, such as the wisp/status
saying that the model is down or back.  A newer request cancels an older
one.  A failed request says nothing in the echo area (lsp-mode would, on
every keystroke): wisp reports the model's state once, through wisp/status."
  (setq wisp--timer nil)
  (when (and (buffer-live-p buffer)
             (eq (current-buffer) buffer)
             (eq (point) point)
             (not (cl-some #'funcall lsp-inline-completion-inhibit-predicates)))
    (let ((tick (buffer-chars-modified-tick)))
      (run-hooks 'lsp-before-inline-completion-hook)
      (lsp-request-async
       "textDocument/inlineCompletion" (lsp-inline-completion--params t)
       (lambda (resp)
         (when (and (buffer-live-p buffer) (eq (window-buffer) buffer))
           (with-current-buffer buffer
             (when (and (eql (wisp--cursor) point) (eql tick (buffer-chars-modified-tick)))
               (wisp--show point (lsp-inline-completion--parse-items resp))))))
       :mode 'detached
       :error-handler #'ignore
       :cancel-token 'wisp--inline-completion))))

(defun wisp--cursor ()
  "Where the user's cursor is.
While lsp-mode shows ghost text at the end of a line, point sits one
character back (on the character whose display carries the ghost text);
the cursor is then `lsp-inline-completion--start-point'."
  (if (lsp-inline-completion--active-p)
      lsp-inline-completion--start-point
    (point)))

(defun wisp--show (point items)
  "Show the inline completion ITEMS as ghost text at POINT, the cursor.
No ITEMS takes away the ghost text a streamed piece drew: the answer
is the last word.  Nothing shows again for text where the user
dismissed it."
  (if items
      (unless (eql wisp--dismissed (buffer-chars-modified-tick))
        (setq lsp-inline-completion--items items
              lsp-inline-completion--current 0
              lsp-inline-completion--start-point point)
        (lsp-inline-completion-show-overlay))
    (when (lsp-inline-completion--active-p)
      (lsp-inline-completion--clear-overlay)
      (goto-char point))))

(defun wisp--on-partial (_workspace params)
  "Draw the ghost text of a wisp/inlineCompletionPartial notification PARAMS.
wisp streams the suggestion of a request while the model writes it;
drawing each piece shows ghost text from the model's first token rather
than after its last.  A piece is drawn only where it belongs: the
buffer on screen, unchanged since the request (its version) and point
still at the request's position.  Accepting takes what is drawn."
  (when-let* ((text (gethash "text" params))
              (position (gethash "position" params))
              (uri (gethash "uri" (gethash "textDocument" params)))
              (buffer (window-buffer))
              ((buffer-local-value 'lsp-inline-completion-mode buffer)))
    (with-current-buffer buffer
      (when (and (equal (lsp--buffer-uri) uri)
                 (eql lsp--cur-version (gethash "version" params))
                 (eql (wisp--cursor) (lsp--position-to-point position))
                 (not (cl-some #'funcall lsp-inline-completion-inhibit-predicates)))
        (wisp--show (wisp--cursor)
                    (unless (string-empty-p text)
                      (list (lsp-make-inline-completion-item
                             :insertText text
                             :range (lsp-make-range :start position :end position)))))))))

(defun wisp--ask-when-read (buffer point)
  "Ask for ghost text in BUFFER at POINT unless keys are still waiting.
A waiting key runs a command of its own, whose `wisp--post-command'
asks instead; forgetting `wisp--tick' makes sure it does even when that
command changes nothing."
  (setq wisp--timer nil)
  (if (input-pending-p)
      (when (buffer-live-p buffer)
        (with-current-buffer buffer
          (setq wisp--tick nil)))
    (with-demoted-errors "wisp: %S"
      (wisp--ask buffer point))))

(defun wisp--post-command ()
  "Ask for ghost text after a command that changed the buffer.
lsp-mode has already sent the change (its `after-change-functions' send
didChange at once), so the request goes out right away, before Emacs
redraws, unless more keys wait to be read or
`wisp-inline-completion-delay' asks for a pause."
  (let ((tick (buffer-chars-modified-tick)))
    (unless (eql tick wisp--tick)
      (setq wisp--tick tick)
      (when wisp--timer
        (cancel-timer wisp--timer)
        (setq wisp--timer nil))
      (when lsp-inline-completion-mode
        (if (and (<= wisp-inline-completion-delay 0) (not (input-pending-p)))
            (wisp--ask-when-read (current-buffer) (point))
          (setq wisp--timer (run-with-idle-timer wisp-inline-completion-delay nil
                                                 #'wisp--ask-when-read (current-buffer) (point))))))))

(defun wisp--indent-as-typed (text start _end)
  "Indent the line of an accepted TEXT inserted at START as typing it would.
When TEXT starts the line's code and its first character is one
`electric-indent-mode' re-indents the line for when typed (a closing
brace in most modes), the line goes to the indentation the mode gives
it: an accepted \"}\" where Enter left the block's body indentation
goes back to its block's level, as the typed one does."
  (when (and electric-indent-mode
             (> (length text) 0)
             (memq (aref text 0) electric-indent-chars)
             (save-excursion
               (goto-char start)
               (skip-chars-backward " \t")
               (bolp)))
    (let ((end (point-marker)))
      (save-excursion
        (goto-char start)
        (indent-according-to-mode))
      (goto-char end)
      (set-marker end nil))))

(defun wisp--inline-completion-setup ()
  "Drive `lsp-inline-completion-mode' from each change in wisp's buffers.
lsp-mode's own trigger waits `lsp-idle-delay' and then
`lsp-inline-completion-idle-delay' after the last change; wisp streams
from the first keystroke, so the buffer asks right after each change."
  (when (wisp--lsp-buffer-p)
    (if lsp-inline-completion-mode
        (progn
          (remove-hook 'lsp-on-change-hook #'lsp-inline-completion--after-change t)
          (setq wisp--tick (buffer-chars-modified-tick))
          (add-hook 'lsp-inline-completion-cancelled-hook #'wisp--dismiss nil t)
          (add-hook 'lsp-inline-completion-accepted-functions #'wisp--indent-as-typed nil t)
          (add-hook 'post-command-hook #'wisp--post-command nil t))
      (remove-hook 'lsp-inline-completion-cancelled-hook #'wisp--dismiss t)
      (remove-hook 'lsp-inline-completion-accepted-functions #'wisp--indent-as-typed t)
      (remove-hook 'post-command-hook #'wisp--post-command t))))

(defun wisp--lsp-register ()
  "Register wisp with lsp-mode as an add-on server."
  (require 'lsp-inline-completion nil t)
  (add-hook 'lsp-inline-completion-mode-hook #'wisp--inline-completion-setup)
  (let ((handlers (make-hash-table :test 'equal)))
    (puthash "wisp/status" #'wisp--on-status handlers)
    (puthash "wisp/inlineCompletionPartial" #'wisp--on-partial handlers)
    (lsp-register-client
     (make-lsp-client
      :new-connection (lsp-stdio-connection #'wisp--command)
      :activation-fn (lambda (_file mode)
                       (cl-some (lambda (m) (provided-mode-derived-p mode m)) wisp-major-modes))
      :server-id 'wisp
      :add-on? t
      :priority -2
      :initialization-options #'wisp--lsp-initialization-options
      :notification-handlers handlers))))

(with-eval-after-load 'lsp-mode
  (wisp--lsp-register))

(with-eval-after-load 'lsp-inline-completion
  (wisp--bind-accept-keys nil wisp-accept-keys))

;;;; eglot

(defvar eglot-server-programs)
(declare-function eglot-current-server "eglot")
(declare-function eglot-execute-command "eglot")
(declare-function eglot--TextDocumentIdentifier "eglot")
(declare-function eglot--pos-to-lsp-position "eglot")
(declare-function eglot--server-capable "eglot")
(declare-function eglot-imenu "eglot")
(defvar eglot--versioned-identifier)

(defun wisp--eglot-contact (_interactive)
  "Eglot's contact for wisp, with wisp/status on (`wisp--status' shows it)."
  (append (wisp--command)
          (list :initializationOptions (wisp--with-status (wisp--initialization-options)))))

(with-eval-after-load 'eglot
  (cl-defmethod eglot-handle-notification
    (_server (_method (eql wisp/status)) &key state message &allow-other-keys)
    "Record wisp's state for the mode line (`wisp--status')."
    (wisp--status state message))
  (add-hook 'eglot-managed-mode-hook #'wisp--eglot-imenu)
  (add-hook 'eglot-managed-mode-hook #'wisp--eglot-watch-replies))

(declare-function jsonrpc--process "jsonrpc")

(defun wisp--eglot-watch-replies ()
  "Read, after each command, what eglot's server sent and jsonrpc left unread."
  (if (bound-and-true-p eglot--managed-mode)
      (add-hook 'post-command-hook #'wisp--eglot-read-pending nil t)
    (remove-hook 'post-command-hook #'wisp--eglot-read-pending t)))

(defun wisp--eglot-read-pending ()
  "Hand the messages waiting in the eglot server's process buffer to its filter.
A synchronous request (eglot's `completion-at-point') returns by throwing
out of jsonrpc's process filter once its reply is read: the messages
that came in the same read after the reply wait, unread, until the
server writes again.  The wisp/status saying the model is down, sent
as that request failed, waited so for the next request, and the mode
line said nothing meanwhile."
  (when-let* ((server (eglot-current-server))
              (proc (jsonrpc--process server))
              (buffer (process-buffer proc)))
    (when (and (process-live-p proc) (buffer-live-p buffer)
               (> (buffer-size buffer) 0))
      (funcall (process-filter proc) proc ""))))

(defun wisp--eglot-imenu ()
  "Leave imenu to the major mode where eglot's server lists no symbols.
eglot 1.9 asks its server for textDocument/documentSymbol whenever the
menu bar is redrawn, whether the server offers it or not: wisp does not,
and the refusal came up as an error in the echo area on every command,
hiding everything else said there."
  (when (and (bound-and-true-p eglot--managed-mode)
             (not (eglot--server-capable :documentSymbolProvider)))
    (remove-function (local 'imenu-create-index-function) #'eglot-imenu)))

;;;###autoload
(defun wisp-eglot-setup ()
  "Make wisp eglot's server for `wisp-eglot-modes'.
One entry for each mode: eglot 1.9 gives the files of all the modes of
one entry the language of the first file it opened (main.go sent as
python), so each mode gets a server of its own."
  (interactive)
  (require 'eglot)
  (dolist (mode (reverse wisp-eglot-modes))
    (add-to-list 'eglot-server-programs (cons mode #'wisp--eglot-contact))))

;;;; Quick edit

(defun wisp--edit-arguments (instruction beg end version identifier range)
  "The wisp.quickEdit argument for INSTRUCTION."
  (ignore beg end)
  (vector (list :textDocument (append identifier (list :version version))
                :range range
                :instruction instruction)))

;;;###autoload
(defun wisp-quick-edit (instruction)
  "Rewrite the region, or the code at point, following INSTRUCTION.
wisp answers with a workspace edit that the client applies."
  (interactive "sInstruction: ")
  (let ((beg (if (use-region-p) (region-beginning) (point)))
        (end (if (use-region-p) (region-end) (point))))
    (cond
     ((and (bound-and-true-p lsp-mode) lsp--buffer-workspaces)
      (lsp-send-execute-command
       "wisp.quickEdit"
       (wisp--edit-arguments instruction beg end
                             (bound-and-true-p lsp--cur-version)
                             (lsp--text-document-identifier)
                             (lsp--region-to-range beg end))))
     ((and (fboundp 'eglot-current-server) (eglot-current-server))
      (eglot-execute-command
       (eglot-current-server) "wisp.quickEdit"
       (wisp--edit-arguments instruction beg end
                             eglot--versioned-identifier
                             (eglot--TextDocumentIdentifier)
                             (list :start (eglot--pos-to-lsp-position beg)
                                   :end (eglot--pos-to-lsp-position end)))))
     (t (user-error "wisp is not running in this buffer (start lsp-mode or eglot)")))))

(provide 'wisp)
;;; wisp.el ends here
