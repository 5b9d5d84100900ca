package kernel_test

import (
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-zeromq/zmq4"
	"github.com/stretchr/testify/require"
)

// procSocket is one socket a process holds, read from /proc.
type procSocket struct {
	proto string // tcp, tcp6, udp, udp6, raw, raw6
	ip    net.IP
	port  int
	state string // hex TCP state; "0A" is LISTEN
}

func (s procSocket) String() string {
	return fmt.Sprintf("%s %s state %s", s.proto, net.JoinHostPort(s.ip.String(), strconv.Itoa(s.port)), s.state)
}

// processSockets lists the internet sockets that process pid holds: the
// socket inodes among its open files, looked up in /proc/PID/net/*.
func processSockets(pid int) ([]procSocket, error) {
	fds, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", pid))
	if err != nil {
		return nil, err
	}
	inodes := map[string]bool{}
	for _, fd := range fds {
		link, err := os.Readlink(fmt.Sprintf("/proc/%d/fd/%s", pid, fd.Name()))
		if err == nil && strings.HasPrefix(link, "socket:[") {
			inodes[strings.TrimSuffix(strings.TrimPrefix(link, "socket:["), "]")] = true
		}
	}
	var out []procSocket
	for _, proto := range []string{"tcp", "tcp6", "udp", "udp6", "raw", "raw6"} {
		b, err := os.ReadFile(fmt.Sprintf("/proc/%d/net/%s", pid, proto))
		if err != nil {
			continue // no IPv6 or raw support in this kernel
		}
		for _, line := range strings.Split(string(b), "\n")[1:] {
			f := strings.Fields(line)
			if len(f) < 10 || !inodes[f[9]] {
				continue
			}
			ip, port, err := parseProcAddr(f[1])
			if err != nil {
				return nil, fmt.Errorf("/proc/%d/net/%s: %q: %v", pid, proto, line, err)
			}
			out = append(out, procSocket{proto: proto, ip: ip, port: port, state: f[3]})
		}
	}
	return out, nil
}

// parseProcAddr decodes /proc/net/tcp's "0100007F:A02D": the address as
// 32-bit words in host (little-endian) order, the port big-endian.
func parseProcAddr(s string) (net.IP, int, error) {
	a, p, ok := strings.Cut(s, ":")
	if !ok {
		return nil, 0, errors.New("no port")
	}
	raw, err := hex.DecodeString(a)
	if err != nil || (len(raw) != 4 && len(raw) != 16) {
		return nil, 0, fmt.Errorf("bad address %q", a)
	}
	ip := make(net.IP, len(raw))
	for w := 0; w < len(raw); w += 4 {
		for i := 0; i < 4; i++ {
			ip[w+i] = raw[w+3-i]
		}
	}
	port, err := strconv.ParseUint(p, 16, 16)
	if err != nil {
		return nil, 0, err
	}
	return ip, int(port), nil
}

// lockedBuffer collects a process's output from its copying goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// runningKernel is a `ptorepl kernel CONN` process.
type runningKernel struct {
	cmd    *exec.Cmd
	output *lockedBuffer
	exited chan struct{}
	err    error // from Wait, once exited is closed
}

// connFile is a connection file's content with the given ip and ports
// (shell, control, stdin, iopub, hb).
func connFile(ip string, ports []int) map[string]any {
	return map[string]any{"transport": "tcp", "ip": ip,
		"shell_port": ports[0], "control_port": ports[1], "stdin_port": ports[2], "iopub_port": ports[3], "hb_port": ports[4],
		"key": "a0436f6c-1916-498b-8eb9-e81ab9368e84", "signature_scheme": "hmac-sha256", "kernel_name": "ptorepl"}
}

// startKernel writes conn (a map, or raw bytes) to a connection file and
// starts the kernel on it. Host names are resolved without DNS queries.
func startKernel(t *testing.T, bin string, conn any) *runningKernel {
	t.Helper()
	raw, ok := conn.([]byte)
	if !ok {
		var err error
		raw, err = json.Marshal(conn)
		require.NoError(t, err)
	}
	path := filepath.Join(t.TempDir(), "kernel-conn.json")
	require.NoError(t, os.WriteFile(path, raw, 0o600))
	return startKernelFile(t, bin, path)
}

func startKernelFile(t *testing.T, bin, path string) *runningKernel {
	t.Helper()
	k := &runningKernel{cmd: exec.Command(bin, "kernel", path), output: &lockedBuffer{}, exited: make(chan struct{})}
	// GODEBUG=netdns=go: a host name in "ip" is looked up by Go's resolver,
	// which refuses invalid names locally instead of asking a DNS server.
	k.cmd.Env = append(os.Environ(), "GODEBUG=netdns=go", "PTOREPL_HISTORY="+filepath.Join(t.TempDir(), "hist"))
	k.cmd.Stdout, k.cmd.Stderr = k.output, k.output
	require.NoError(t, k.cmd.Start())
	go func() {
		k.err = k.cmd.Wait()
		close(k.exited)
	}()
	t.Cleanup(func() {
		_ = k.cmd.Process.Kill()
		select {
		case <-k.exited:
		case <-time.After(10 * time.Second):
			t.Errorf("kernel pid %d did not exit 10 s after SIGKILL", k.cmd.Process.Pid)
		}
	})
	return k
}

// waitListening waits until the kernel holds at least n listening TCP
// sockets, or exits, or timeout passes. It returns all its sockets then and
// whether it is still running.
func (k *runningKernel) waitListening(t *testing.T, n int, timeout time.Duration) ([]procSocket, bool) {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		select {
		case <-k.exited:
			return nil, false
		default:
		}
		socks, err := processSockets(k.cmd.Process.Pid)
		listening := 0
		for _, s := range socks {
			if strings.HasPrefix(s.proto, "tcp") && s.state == "0A" {
				listening++
			}
		}
		if err == nil && listening >= n {
			// Let a socket that is about to appear show up too.
			time.Sleep(300 * time.Millisecond)
			socks, err = processSockets(k.cmd.Process.Pid)
			if err == nil {
				return socks, true
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("kernel did not listen on %d TCP sockets within %v (sockets: %v, err: %v); output:\n%s", n, timeout, socks, err, k.output)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// heartbeat sends a ping to the kernel's heartbeat socket and waits for the echo.
func heartbeat(addr string, timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	req := zmq4.NewReq(ctx)
	defer req.Close()
	done := make(chan error, 1)
	go func() {
		if err := req.Dial(addr); err != nil {
			done <- err
			return
		}
		if err := req.Send(zmq4.NewMsgString("ping")); err != nil {
			done <- err
			return
		}
		m, err := req.Recv()
		if err == nil && string(m.Bytes()) != "ping" {
			err = fmt.Errorf("heartbeat echoed %q, want %q", m.Bytes(), "ping")
		}
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("no heartbeat echo from %s within %v", addr, timeout)
	}
}

// TestKernelListensOnlyOnConnectionAddress starts `ptorepl kernel CONN` and
// reads the kernel process's own sockets from /proc: it must listen on
// exactly the five ports of the connection file, on exactly its ip — no
// wildcard address, no IPv6, no UDP — and answer there. Run with ip
// 127.0.0.2 as well, 127.0.0.1 must then refuse, which shows the kernel binds
// the given address, not every loopback one. (Only loopback addresses are
// contacted: the /proc check covers the non-loopback interfaces.)
// Connection files the kernel cannot honour must end it with a clear error.
func TestKernelListensOnlyOnConnectionAddress(t *testing.T) {
	if _, err := os.Stat("/proc/self/net/tcp"); err != nil {
		t.Fatalf("this test reads /proc/PID/net/tcp (Linux procfs): %v", err)
	}
	bin, _ := buildKernelBinary(t, "")

	for _, tc := range []struct{ ip, other string }{{"127.0.0.1", "127.0.0.2"}, {"127.0.0.2", "127.0.0.1"}} {
		t.Run("ip="+tc.ip, func(t *testing.T) {
			ports := freePortsOn(t, 5, tc.ip, tc.other) // nothing else may hold them on the other address
			k := startKernel(t, bin, connFile(tc.ip, ports))
			socks, running := k.waitListening(t, 5, 60*time.Second)
			require.True(t, running, "kernel exited: %v; output:\n%s", k.err, k.output)

			var got, want []string
			for _, p := range ports {
				want = append(want, fmt.Sprintf("tcp %s:%d state 0A", tc.ip, p))
			}
			for _, s := range socks {
				if s.state == "0A" || !strings.HasPrefix(s.proto, "tcp") {
					got = append(got, s.String())
				}
			}
			sort.Strings(got)
			sort.Strings(want)
			require.Equal(t, want, got, "the kernel's listening and UDP/raw sockets must be exactly the connection file's five, on %s only", tc.ip)
			for _, s := range socks {
				require.False(t, s.ip.IsUnspecified(), "socket on a wildcard address: %v", s)
			}

			require.NoError(t, heartbeat(fmt.Sprintf("tcp://%s:%d", tc.ip, ports[4]), 30*time.Second))
			for _, p := range ports {
				c, err := net.DialTimeout("tcp", net.JoinHostPort(tc.other, strconv.Itoa(p)), 5*time.Second)
				if err == nil {
					self := c.LocalAddr().String() == c.RemoteAddr().String()
					c.Close()
					if self {
						// TCP's simultaneous open: the dial's own ephemeral
						// port was p, so it reached itself, not a listener.
						continue
					}
				}
				require.ErrorIs(t, err, syscall.ECONNREFUSED, "port %d must not be reachable on %s", p, tc.other)
			}
			select {
			case <-k.exited:
				t.Fatalf("kernel exited: %v; output:\n%s", k.err, k.output)
			default:
			}
		})
	}

	// Connection files the kernel cannot serve: it must exit non-zero, soon,
	// saying what is wrong.
	ok := freePorts(t, "127.0.0.1", 5)
	with := func(key string, v any) map[string]any {
		c := connFile("127.0.0.1", ok)
		c[key] = v
		return c
	}
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	defer busy.Close()
	busyPort := busy.Addr().(*net.TCPAddr).Port
	missing := filepath.Join(t.TempDir(), "no-such-conn.json")
	for _, tc := range []struct {
		name string
		conn any // map, []byte, or a path (string) that is passed as is
		want []string
	}{
		{"transport=udp", with("transport", "udp"), []string{"udp://127.0.0.1:"}},
		{"transport=bogus", with("transport", "bogus"), []string{`unknown transport "bogus"`}},
		{"ip=not an address", with("ip", "bad ip!"), []string{"bad ip!"}},
		{"ip=not on this machine", with("ip", "192.0.2.1"), []string{"192.0.2.1", "cannot assign requested address"}},
		{"port out of range", with("shell_port", 70000), []string{"70000", "shell_port must be a port in 1..65535"}},
		{"port in use", with("iopub_port", busyPort), []string{strconv.Itoa(busyPort), "address already in use"}},
		{"signature_scheme=hmac-md5", with("signature_scheme", "hmac-md5"), []string{`unsupported signature scheme "hmac-md5"`}},
		{"not JSON", []byte("shell_port = 1\n"), []string{"connection file"}},
		{"no file", missing, []string{missing, "no such file"}},
	} {
		t.Run("rejects/"+tc.name, func(t *testing.T) {
			var k *runningKernel
			if path, isPath := tc.conn.(string); isPath {
				k = startKernelFile(t, bin, path)
			} else {
				k = startKernel(t, bin, tc.conn)
			}
			select {
			case <-k.exited:
			case <-time.After(30 * time.Second):
				t.Fatalf("kernel still running 30 s after start on a bad connection file; output:\n%s", k.output)
			}
			var ee *exec.ExitError
			require.ErrorAs(t, k.err, &ee, "kernel should exit with an error status; output:\n%s", k.output)
			require.NotZero(t, ee.ExitCode())
			out := k.output.String()
			require.True(t, strings.HasPrefix(out, "ptorepl: "), "error should be one ptorepl: line, got:\n%s", out)
			for _, w := range tc.want {
				require.Contains(t, strings.ToLower(out), strings.ToLower(w))
			}
			t.Logf("exit %d: %s", ee.ExitCode(), strings.TrimSpace(out))
		})
	}

	// Connection files that once made the kernel listen where no client
	// expected: an empty ip (every interface) and port 0 (a random port
	// written nowhere). The kernel now defaults the ip to loopback and
	// rejects port 0; either coming back fails here.
	for _, tc := range []struct {
		name, issue string
		key         string
		value       any
	}{
		{"ip empty", `"ip": "" (or no "ip" key) listens on every interface instead of failing or defaulting to 127.0.0.1`, "ip", ""},
		{"port 0", `a port of 0 binds a random port that is written nowhere, so no client can reach that socket`, "hb_port", 0},
	} {
		t.Run("former issue/"+tc.name, func(t *testing.T) {
			ports := freePorts(t, "127.0.0.1", 5)
			c := connFile("127.0.0.1", ports)
			c[tc.key] = tc.value
			k := startKernel(t, bin, c)
			var socks []procSocket
			running := true
			select {
			case <-k.exited:
				running = false
			case <-time.After(2 * time.Second):
				socks, running = k.waitListening(t, 5, 60*time.Second)
			}
			if !running {
				t.Logf("the kernel now rejects this connection file (%v): %s", k.err, k.output)
				return
			}
			declared := map[int]bool{}
			for _, p := range ports {
				declared[p] = true
			}
			var bad []string
			for _, s := range socks {
				if s.state == "0A" && (s.ip.IsUnspecified() || !s.ip.IsLoopback() || !declared[s.port]) {
					bad = append(bad, s.String())
				}
			}
			if len(bad) == 0 {
				t.Logf("accepted, listening on the declared loopback ports only: fine")
				return
			}
			msg := fmt.Sprintf("regression: %s; listening: %s", tc.issue, strings.Join(bad, ", "))
			t.Error(msg)
		})
	}
}
