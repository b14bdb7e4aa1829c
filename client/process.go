package client

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Process is a language server running as a child process, talked to
// over its stdio: pass it to New as the connection.
type Process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout io.ReadCloser
	stderr *tail
	// done is closed once the process has exited and been waited for.
	done chan struct{}
}

// Start starts cmd with its stdin and stdout as the session's stream.
// Its stderr is kept (the last MiB) for Stderr unless cmd.Stderr is set.
func Start(cmd *exec.Cmd) (*Process, error) {
	p := &Process{cmd: cmd, stderr: &tail{}, done: make(chan struct{})}
	var err error
	if p.stdin, err = cmd.StdinPipe(); err != nil {
		return nil, fmt.Errorf("%s stdin: %w", cmd.Path, err)
	}
	if p.stdout, err = cmd.StdoutPipe(); err != nil {
		return nil, fmt.Errorf("%s stdout: %w", cmd.Path, err)
	}
	if cmd.Stderr == nil {
		cmd.Stderr = p.stderr
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start %s: %w", cmd.Path, err)
	}
	go func() { cmd.Wait(); close(p.done) }()
	return p, nil
}

// Read, Write and Close make the process's stdio the client's stream.
// Close closes its stdin, which a server takes as the end of the session.
func (p *Process) Read(b []byte) (int, error)  { return p.stdout.Read(b) }
func (p *Process) Write(b []byte) (int, error) { return p.stdin.Write(b) }
func (p *Process) Close() error                { return p.stdin.Close() }

// Pid is the process's id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Signal sends sig to the process.
func (p *Process) Signal(sig os.Signal) error { return p.cmd.Process.Signal(sig) }

// Done is closed when the process has exited.
func (p *Process) Done() <-chan struct{} { return p.done }

// State is the exited process's state; nil while it runs.
func (p *Process) State() *os.ProcessState {
	select {
	case <-p.done:
		return p.cmd.ProcessState
	default:
		return nil
	}
}

// Stderr returns what the process wrote to stderr (the last MiB of it),
// when Start kept it.
func (p *Process) Stderr() string { return p.stderr.String() }

// Wait waits for the process to exit, killing it after grace.
func (p *Process) Wait(grace time.Duration) {
	select {
	case <-p.done:
	case <-time.After(grace):
		p.Kill()
	}
}

// Kill kills the process and waits for it to exit.
func (p *Process) Kill() {
	p.cmd.Process.Kill()
	<-p.done
}

// tail keeps the last MiB written to it; it is written and read from
// different goroutines.
type tail struct {
	mu  sync.Mutex // guards buf
	buf bytes.Buffer
}

const tailMax = 1 << 20

func (t *tail) Write(b []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf.Write(b)
	if over := t.buf.Len() - tailMax; over > 0 {
		t.buf.Next(over)
	}
	return len(b), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
