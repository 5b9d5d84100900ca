// Package kernel is ptorepl's Jupyter kernel: messaging protocol 5.3 over
// ZeroMQ (github.com/go-zeromq/zmq4), evaluating cells in the shared
// interp session and publishing rich output.
package kernel

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/ptorepl/ptorepl/display"
	"github.com/ptorepl/ptorepl/interp"
)

const protocolVersion = "5.3"

// Info describes the implementation in kernel_info_reply.
type Info struct {
	Implementation string
	Version        string
	Banner         string
}

// Kernel is one running kernel.
type Kernel struct {
	ci      *ConnectionInfo
	info    Info
	sign    signer
	session string
	log     *log.Logger

	shell, control, stdin, iopub, hb zmq4.Socket
	iopubMu                          sync.Mutex

	sess    *interp.Session
	count   int
	history *history

	// the running execution, for interrupts
	runMu     sync.Mutex
	cancelRun context.CancelFunc
	parent    *Message // the execute_request being served, for output parenting

	abortMu    sync.Mutex
	abortUntil time.Time // execute requests that arrived before this are aborted (stop_on_error)

	done     chan struct{}
	doneOnce sync.Once
	restart  bool
}

// New prepares a kernel for the connection file's ports.
func New(ci *ConnectionInfo, info Info, logw io.Writer) (*Kernel, error) {
	k := &Kernel{ci: ci, info: info, sign: signer{key: []byte(ci.Key)}, session: newID(),
		log: log.New(logw, "ptorepl kernel: ", log.LstdFlags), history: newHistory(), done: make(chan struct{})}
	s, err := interp.New(interp.Options{OnOutput: k.onOutput})
	if err != nil {
		return nil, err
	}
	k.sess = s
	return k, nil
}

// Run serves until shutdown or ctx ends. It returns whether a restart was requested.
func (k *Kernel) Run(ctx context.Context) (restart bool, err error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	k.shell = zmq4.NewRouter(ctx)
	k.control = zmq4.NewRouter(ctx)
	k.stdin = zmq4.NewRouter(ctx)
	k.iopub = zmq4.NewPub(ctx)
	k.hb = zmq4.NewRep(ctx)
	socks := []struct {
		s    zmq4.Socket
		port int
	}{{k.shell, k.ci.ShellPort}, {k.control, k.ci.ControlPort}, {k.stdin, k.ci.StdinPort}, {k.iopub, k.ci.IOPubPort}, {k.hb, k.ci.HBPort}}
	for _, s := range socks {
		if err := s.s.Listen(k.ci.addr(s.port)); err != nil {
			return false, fmt.Errorf("listen on %s: %w", k.ci.addr(s.port), err)
		}
		defer s.s.Close()
	}
	display.SetPublisher(&publisher{k: k})
	defer display.SetPublisher(nil)

	go k.heartbeat()
	go k.serve(k.control, true)
	go k.watchParent()
	shellMsgs := make(chan arrived, 64)
	go k.receive(k.shell, shellMsgs)
	go func() {
		for a := range shellMsgs {
			k.dispatch(k.shell, a, false)
		}
	}()
	select {
	case <-k.done:
	case <-ctx.Done():
	}
	// Let the last replies leave before the sockets close.
	time.Sleep(50 * time.Millisecond)
	return k.restart, nil
}

type arrived struct {
	m  *Message
	at time.Time
}

func (k *Kernel) stop(restart bool) {
	k.doneOnce.Do(func() {
		k.restart = restart
		close(k.done)
	})
}

func (k *Kernel) heartbeat() {
	for {
		m, err := k.hb.Recv()
		if err != nil {
			return
		}
		if err := k.hb.Send(m); err != nil {
			return
		}
	}
}

// receive reads and verifies messages, timestamping their arrival.
func (k *Kernel) receive(sock zmq4.Socket, out chan<- arrived) {
	defer close(out)
	for {
		raw, err := sock.Recv()
		if err != nil {
			select {
			case <-k.done:
				return
			default:
			}
			if errors.Is(err, context.Canceled) || errors.Is(err, io.EOF) {
				return
			}
			k.log.Printf("recv: %v", err)
			continue
		}
		m, err := k.sign.decode(raw.Frames)
		if err != nil {
			// A message that fails verification is never executed.
			k.log.Printf("dropped message: %v", err)
			continue
		}
		out <- arrived{m: m, at: time.Now()}
	}
}

func (k *Kernel) serve(sock zmq4.Socket, control bool) {
	ch := make(chan arrived, 16)
	go k.receive(sock, ch)
	for a := range ch {
		k.dispatch(sock, a, control)
	}
}

func (k *Kernel) dispatch(sock zmq4.Socket, a arrived, control bool) {
	m := a.m
	defer func() {
		// A handler bug must not take the kernel down.
		if r := recover(); r != nil {
			k.log.Printf("handler %s panicked: %v", m.Header.MsgType, r)
		}
	}()
	if !control {
		k.publishStatus(m, "busy")
		defer k.publishStatus(m, "idle")
	}
	switch m.Header.MsgType {
	case "kernel_info_request":
		k.reply(sock, m, "kernel_info_reply", k.kernelInfo())
	case "execute_request":
		k.execute(sock, a)
	case "complete_request":
		k.complete(sock, m)
	case "inspect_request":
		k.inspect(sock, m)
	case "is_complete_request":
		var c struct{ Code string }
		json.Unmarshal(m.Content, &c)
		st, indent := interp.IsComplete(c.Code)
		rep := map[string]any{"status": st}
		if st == interp.Incomplete {
			rep["indent"] = indent
		}
		k.reply(sock, m, "is_complete_reply", rep)
	case "history_request":
		k.reply(sock, m, "history_reply", k.history.answer(m.Content, k.session))
	case "comm_info_request":
		k.reply(sock, m, "comm_info_reply", map[string]any{"status": "ok", "comms": map[string]any{}})
	case "comm_open":
		// No comm targets: close it right away, as the protocol asks.
		var c struct {
			CommID string `json:"comm_id"`
		}
		json.Unmarshal(m.Content, &c)
		k.broadcast(m, "comm_close", map[string]any{"comm_id": c.CommID, "data": map[string]any{}})
	case "comm_msg", "comm_close":
	case "interrupt_request":
		k.interrupt()
		k.reply(sock, m, "interrupt_reply", map[string]any{"status": "ok"})
	case "shutdown_request":
		var c struct{ Restart bool }
		json.Unmarshal(m.Content, &c)
		k.interrupt()
		k.reply(sock, m, "shutdown_reply", map[string]any{"status": "ok", "restart": c.Restart})
		k.stop(c.Restart)
	default:
		k.log.Printf("unhandled message type %q", m.Header.MsgType)
	}
}

func (k *Kernel) kernelInfo() map[string]any {
	return map[string]any{
		"status":                 "ok",
		"protocol_version":       protocolVersion,
		"implementation":         k.info.Implementation,
		"implementation_version": k.info.Version,
		"language_info": map[string]any{
			"name": "go", "version": strings.TrimPrefix(goVersion(), "go"), "mimetype": "text/x-go",
			"file_extension": ".go", "pygments_lexer": "go", "codemirror_mode": "go",
		},
		"banner":     k.info.Banner,
		"help_links": []any{map[string]any{"text": "PyPTO", "url": "https://github.com/hw-native-sys/pypto"}},
	}
}

// send signs and sends a message on sock.
func (k *Kernel) send(sock zmq4.Socket, m *Message) {
	frames, err := k.sign.encode(m)
	if err != nil {
		k.log.Printf("encode %s: %v", m.Header.MsgType, err)
		return
	}
	if err := sock.SendMulti(zmq4.NewMsgFrom(frames...)); err != nil {
		k.log.Printf("send %s: %v", m.Header.MsgType, err)
	}
}

func (k *Kernel) reply(sock zmq4.Socket, parent *Message, msgType string, content any) {
	c, err := json.Marshal(content)
	if err != nil {
		k.log.Printf("marshal %s: %v", msgType, err)
		return
	}
	parentHeader, _ := json.Marshal(parent.Header)
	k.send(sock, &Message{Identities: parent.Identities, Header: newHeader(msgType, k.session), Parent: parentHeader, Content: c})
}

// broadcast publishes on iopub, parented to parent (nil: no parent).
func (k *Kernel) broadcast(parent *Message, msgType string, content any) {
	c, err := json.Marshal(content)
	if err != nil {
		k.log.Printf("marshal %s: %v", msgType, err)
		return
	}
	var ph json.RawMessage
	if parent != nil {
		ph, _ = json.Marshal(parent.Header)
	}
	k.iopubMu.Lock()
	defer k.iopubMu.Unlock()
	k.send(k.iopub, &Message{Identities: [][]byte{[]byte(msgType)}, Header: newHeader(msgType, k.session), Parent: ph, Content: c})
}

func (k *Kernel) publishStatus(parent *Message, state string) {
	k.broadcast(parent, "status", map[string]any{"execution_state": state})
}

// watchParent exits when the process that started us (JPY_PARENT_PID) dies,
// as ipykernel does, so orphaned kernels do not linger.
func (k *Kernel) watchParent() {
	pid, err := strconv.Atoi(os.Getenv("JPY_PARENT_PID"))
	if err != nil || pid <= 1 {
		return
	}
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-k.done:
			return
		case <-t.C:
			if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
				k.log.Printf("parent process %d is gone; exiting", pid)
				k.stop(false)
				return
			}
		}
	}
}
