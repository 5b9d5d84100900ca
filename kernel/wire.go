package kernel

import (
	"bytes"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"os"
	"time"
)

// ConnectionInfo is the connection file Jupyter hands a kernel.
type ConnectionInfo struct {
	Transport       string `json:"transport"`
	IP              string `json:"ip"`
	ShellPort       int    `json:"shell_port"`
	ControlPort     int    `json:"control_port"`
	StdinPort       int    `json:"stdin_port"`
	IOPubPort       int    `json:"iopub_port"`
	HBPort          int    `json:"hb_port"`
	Key             string `json:"key"`
	SignatureScheme string `json:"signature_scheme"`
}

// ReadConnectionFile parses a connection file.
func ReadConnectionFile(path string) (*ConnectionInfo, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var ci ConnectionInfo
	if err := json.Unmarshal(b, &ci); err != nil {
		return nil, fmt.Errorf("connection file %s: %w", path, err)
	}
	if ci.Transport == "" {
		ci.Transport = "tcp"
	}
	if ci.Transport == "tcp" {
		// No address means loopback, as ipykernel does: never every interface.
		if ci.IP == "" {
			ci.IP = "127.0.0.1"
		}
		for _, p := range []struct {
			name string
			port int
		}{{"shell_port", ci.ShellPort}, {"control_port", ci.ControlPort}, {"stdin_port", ci.StdinPort}, {"iopub_port", ci.IOPubPort}, {"hb_port", ci.HBPort}} {
			// Port 0 would bind a random port that no client could learn.
			if p.port <= 0 || p.port > 65535 {
				return nil, fmt.Errorf("connection file %s: %s must be a port in 1..65535, got %d", path, p.name, p.port)
			}
		}
	}
	if ci.SignatureScheme != "" && ci.SignatureScheme != "hmac-sha256" {
		return nil, fmt.Errorf("connection file %s: unsupported signature scheme %q", path, ci.SignatureScheme)
	}
	return &ci, nil
}

func (ci *ConnectionInfo) addr(port int) string {
	if ci.Transport == "ipc" {
		return fmt.Sprintf("ipc://%s-%d", ci.IP, port)
	}
	return fmt.Sprintf("%s://%s:%d", ci.Transport, ci.IP, port)
}

// Header is a message header (protocol 5.3).
type Header struct {
	MsgID    string `json:"msg_id"`
	Session  string `json:"session"`
	Username string `json:"username"`
	Date     string `json:"date"`
	MsgType  string `json:"msg_type"`
	Version  string `json:"version"`
}

// Message is one Jupyter message.
type Message struct {
	Identities [][]byte
	Header     Header
	Parent     json.RawMessage // the parent header as received (or {})
	Metadata   map[string]any
	Content    json.RawMessage
	Buffers    [][]byte
}

const delimiter = "<IDS|MSG>"

// ErrBadSignature marks a message whose HMAC does not verify.
var ErrBadSignature = errors.New("message signature does not match")

// signer signs and verifies with HMAC-SHA256; an empty key disables signing.
type signer struct{ key []byte }

func (s signer) mac() hash.Hash { return hmac.New(sha256.New, s.key) }

func (s signer) sign(parts ...[]byte) []byte {
	if len(s.key) == 0 {
		return nil
	}
	m := s.mac()
	for _, p := range parts {
		m.Write(p)
	}
	return []byte(hex.EncodeToString(m.Sum(nil)))
}

// decode parses wire frames, verifying the signature.
func (s signer) decode(frames [][]byte) (*Message, error) {
	i := 0
	for i < len(frames) && string(frames[i]) != delimiter {
		i++
	}
	if i == len(frames) || len(frames) < i+6 {
		return nil, errors.New("malformed message: no delimiter or missing frames")
	}
	sig := frames[i+1]
	parts := frames[i+2 : i+6]
	if len(s.key) > 0 {
		want := s.sign(parts...)
		if !hmac.Equal(want, sig) {
			return nil, ErrBadSignature
		}
	}
	m := &Message{Identities: frames[:i], Parent: json.RawMessage(parts[1]), Content: json.RawMessage(parts[3]), Buffers: frames[i+6:]}
	if err := json.Unmarshal(parts[0], &m.Header); err != nil {
		return nil, fmt.Errorf("malformed header: %w", err)
	}
	if len(bytes.TrimSpace(parts[2])) > 0 {
		if err := json.Unmarshal(parts[2], &m.Metadata); err != nil {
			return nil, fmt.Errorf("malformed metadata: %w", err)
		}
	}
	return m, nil
}

// encode builds the wire frames of a message.
func (s signer) encode(m *Message) ([][]byte, error) {
	header, err := json.Marshal(m.Header)
	if err != nil {
		return nil, err
	}
	parent := []byte(m.Parent)
	if len(parent) == 0 {
		parent = []byte("{}")
	}
	meta := m.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	metadata, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	content := []byte(m.Content)
	if len(content) == 0 {
		content = []byte("{}")
	}
	frames := append([][]byte{}, m.Identities...)
	frames = append(frames, []byte(delimiter), s.sign(header, parent, metadata, content), header, parent, metadata, content)
	return append(frames, m.Buffers...), nil
}

// newHeader makes a fresh header for a reply or broadcast.
func newHeader(msgType, session string) Header {
	return Header{MsgID: newID(), Session: session, Username: "ptorepl", MsgType: msgType,
		Version: protocolVersion, Date: time.Now().UTC().Format(time.RFC3339Nano)}
}

// newID is a random message id (uuid-like hex).
func newID() string {
	b := make([]byte, 16)
	rand.Read(b)
	return hex.EncodeToString(b)
}
