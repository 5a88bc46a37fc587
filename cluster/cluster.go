// Package cluster is the bus between the nodes of a Cardroom cluster
// (docs/cluster.md): NATS subjects, the framing of relayed messages and
// the nodes' heartbeats. It knows nothing of tables or games; the server
// (server/cluster.go) builds ownership, relaying and failover on it.
//
// The layout of the subjects, under a room prefix (default "cardroom"):
//
//	<room>.t.<table>.in        commands for a table, request/reply, to its owner only
//	<room>.n.<node>.c.<conn>   what an owner sends one relayed connection
//	<room>.hb                  every node's heartbeat
//	<room>.lobby               table summaries, from their owners
//	<room>.lobby.sync          a node that starts asks the others for their summaries
//	<room>.presence            every node's online players, every two seconds
//	<room>.revoke              a session or bot token ended: every node closes its sockets
//
// A seat's cards only ever travel on the subject of a connection of the
// player holding that seat: the owner publishes each relayed connection's
// messages, built for that connection's player, on that connection's
// subject, which only the connection's own node subscribes to.
package cluster

import (
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// DefaultRoom is the subject prefix when none is configured.
const DefaultRoom = "cardroom"

// Headers of the bus's rare messages (a connection's close); the
// frequent ones carry no headers (Command, Reply, frames).
const (
	HOp   = "Cr-Op"   // OpClose
	HWhy  = "Cr-Why"  // a closed connection: the reason for the client
	HNode = "Cr-Node" // a closed connection: the owner node that closed it
)

// Operations (HOp).
const (
	OpMsg   = "msg"   // a client's message for the table (the body)
	OpBye   = "bye"   // the relayed connection has gone: forget it
	OpClose = "close" // owner to relay: the owner closed this connection
)

// Answers of an owner to a command: the reply's body is the answer, a
// space and the answering node's name.
const (
	Queued   = "ok"    // queued for the connection
	ErrMoved = "moved" // the node does not own the table (any more): ask again
	ErrBusy  = "busy"  // too many relayed connections or messages waiting
)

// Reply is an owner's answer to a command.
func Reply(answer, node string) []byte { return []byte(answer + " " + node) }

// ParseReply splits a reply into the answer and the answering node.
func ParseReply(b []byte) (answer, node string, ok bool) {
	answer, node, ok = strings.Cut(string(b), " ")
	return answer, node, ok && CheckNode(node) == nil
}

var nodeRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// CheckNode validates a node name: it is a subject token and a lease's
// holder, so 1 to 64 letters, digits, '-' or '_'.
func CheckNode(name string) error {
	if !nodeRE.MatchString(name) {
		return fmt.Errorf("node name %q: want 1 to 64 letters, digits, '-' or '_'", name)
	}
	return nil
}

// CheckRoom validates a room prefix: one or more subject tokens.
func CheckRoom(room string) error {
	for _, tok := range strings.Split(room, ".") {
		if !nodeRE.MatchString(tok) {
			return fmt.Errorf("room prefix %q: want tokens of letters, digits, '-' or '_' separated by dots", room)
		}
	}
	return nil
}

// TableOK reports whether a table id can be a subject token (the server's
// ids always can; a client's id that cannot is no table).
func TableOK(id string) bool { return nodeRE.MatchString(id) }

// Subjects names the subjects of one room.
type Subjects struct{ Room string }

// Table is the subject of a table's commands.
func (s Subjects) Table(id string) string { return s.Room + ".t." + id + ".in" }

// Conn is the subject of one relayed connection's messages.
func (s Subjects) Conn(node string, conn uint64) string {
	return s.Room + ".n." + node + ".c." + strconv.FormatUint(conn, 10)
}

// Bye is the subject on which a node hears that a relaying node's
// connection has gone (OpBye), whatever tables it relayed to: the node
// may hold its stand-in after the tables moved or stopped.
func (s Subjects) Bye(node string) string { return s.Room + ".n." + node + ".bye" }

// Conns is the wildcard a node subscribes to for its relayed connections.
func (s Subjects) Conns(node string) string { return s.Room + ".n." + node + ".c.*" }

// ConnOf returns the connection number of a Conn subject.
func (s Subjects) ConnOf(subject string) (uint64, bool) {
	i := strings.LastIndexByte(subject, '.')
	if i < 0 {
		return 0, false
	}
	n, err := strconv.ParseUint(subject[i+1:], 10, 64)
	return n, err == nil
}

// Heartbeat is the subject of the nodes' heartbeats.
func (s Subjects) Heartbeat() string { return s.Room + ".hb" }

// Lobby is the subject of table summaries.
func (s Subjects) Lobby() string { return s.Room + ".lobby" }

// LobbySync is the subject a starting node asks for every summary on.
func (s Subjects) LobbySync() string { return s.Room + ".lobby.sync" }

// Presence is the subject of the nodes' online players.
func (s Subjects) Presence() string { return s.Room + ".presence" }

// Revoke is the subject of ended sessions and tokens.
func (s Subjects) Revoke() string { return s.Room + ".revoke" }

// MaxFrame bounds one framed message (a state message of a long 500 Rum
// game is well under it).
const MaxFrame = 4 << 20

// AppendFrames appends msgs to b as frames: each a 4-byte big-endian
// length and the bytes. Several WebSocket messages travel in one bus
// message, as they go out in one write.
func AppendFrames(b []byte, msgs ...[]byte) []byte {
	for _, m := range msgs {
		b = binary.BigEndian.AppendUint32(b, uint32(len(m)))
		b = append(b, m...)
	}
	return b
}

// ErrFrame is a body that is not a sequence of whole frames.
var ErrFrame = errors.New("cluster: damaged frames")

// Frames splits a body made by AppendFrames. The messages share data's
// memory.
func Frames(data []byte) ([][]byte, error) {
	var out [][]byte
	for len(data) > 0 {
		if len(data) < 4 {
			return nil, ErrFrame
		}
		n := binary.BigEndian.Uint32(data)
		if n > MaxFrame || int(n) > len(data)-4 {
			return nil, ErrFrame
		}
		out = append(out, data[4:4+n:4+n])
		data = data[4+n:]
	}
	return out, nil
}

// Command is the envelope of a client's message relayed to a table's
// owner: who sent it, through which node's connection. It travels as one
// text line before the client's message, not as NATS headers, which cost
// a map on both sides of every move.
type Command struct {
	Op     string // OpMsg or OpBye
	Node   string // the relaying node
	Conn   uint64 // its connection number
	Player string // "" for an anonymous spectator
	Token  string // the hash of the session's token
	Name   string // the player's display name (last: it may hold spaces)
}

// MaxCommandLine bounds the envelope's line.
const MaxCommandLine = 1024

// AppendCommand appends c's line and the client's message to b.
func AppendCommand(b []byte, c Command, msg []byte) []byte {
	b = append(b, c.Op...)
	b = append(b, ' ')
	b = append(b, c.Node...)
	b = append(b, ' ')
	b = strconv.AppendUint(b, c.Conn, 10)
	b = append(b, ' ')
	b = append(b, orDash(c.Player)...)
	b = append(b, ' ')
	b = append(b, orDash(c.Token)...)
	b = append(b, ' ')
	for i := 0; i < len(c.Name); i++ {
		if ch := c.Name[i]; ch == '\n' {
			b = append(b, ' ')
		} else {
			b = append(b, ch)
		}
	}
	b = append(b, '\n')
	return append(b, msg...)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// ErrCommand is a relayed command whose envelope is damaged.
var ErrCommand = errors.New("cluster: damaged command")

// ParseCommand splits a relayed command into its envelope and the
// client's message (which shares data's memory).
func ParseCommand(data []byte) (Command, []byte, error) {
	nl := -1
	for i := 0; i < len(data) && i <= MaxCommandLine; i++ {
		if data[i] == '\n' {
			nl = i
			break
		}
	}
	if nl < 0 {
		return Command{}, nil, ErrCommand
	}
	f := strings.SplitN(string(data[:nl]), " ", 6)
	if len(f) != 6 || (f[0] != OpMsg && f[0] != OpBye) || CheckNode(f[1]) != nil || strings.ContainsAny(f[3]+f[4], " \t") {
		return Command{}, nil, ErrCommand
	}
	n, err := strconv.ParseUint(f[2], 10, 64)
	if err != nil {
		return Command{}, nil, ErrCommand
	}
	c := Command{Op: f[0], Node: f[1], Conn: n, Player: f[3], Token: f[4], Name: f[5]}
	if c.Player == "-" {
		c.Player = ""
	}
	if c.Token == "-" {
		c.Token = ""
	}
	return c, data[nl+1:], nil
}
