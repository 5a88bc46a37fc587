//go:build unix

package server

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"cardroom/cluster/clustertest"
	"cardroom/cputime"
	"cardroom/game"
	"cardroom/protocol"
	"cardroom/store/pgtest"
)

// BenchmarkClusterMove measures what the bus costs a move: one player
// holding every seat of a Pis Yedili table owned by node 1 plays it move
// by move, connected to node 1 itself (local) or to node 2, which relays
// (relayed). Both nodes, the NATS server and the client run in this
// process, so cpu-µs/move is the CPU the whole cluster spends a move
// (both nodes, the bus and the client's decoding, from getrusage); the
// difference between the two is the bus's share, and ns/op is a move's
// round trip from the client's send to its ack and next state:
//
//	go test ./server -run '^$' -bench ClusterMove -benchtime 2000x
func BenchmarkClusterMove(b *testing.B) {
	needGame(b, "pisyedili")
	u := pgtest.Require(b)
	natsURL := clustertest.StartNATS(b)
	n1 := startClusterNode(b, "n1", u, natsURL, nil)
	n2 := startClusterNode(b, "n2", u, natsURL, nil)
	ctx := context.Background()
	for _, bc := range []struct {
		name string
		via  *testServer
	}{{"local", n1}, {"relayed", n2}} {
		b.Run(bc.name, func(b *testing.B) {
			sess, err := protocol.NewSession(ctx, nil, n1.url, "bench")
			if err != nil {
				b.Fatal(err)
			}
			pc, err := protocol.Dial(ctx, bc.via.url, &protocol.Options{Token: sess.Token, ReadLimit: 1 << 22})
			if err != nil {
				b.Fatal(err)
			}
			defer pc.CloseNow()
			owner, err := protocol.Dial(ctx, n1.url, &protocol.Options{Token: sess.Token, ReadLimit: 1 << 22})
			if err != nil {
				b.Fatal(err)
			}
			defer owner.CloseNow()
			p := &benchPlayer{b: b, pc: pc, owner: owner}
			p.newTable()
			c0 := cputime.Process()
			for b.Loop() {
				p.move()
			}
			cpu := cputime.Process() - c0
			b.ReportMetric(float64(cpu.Microseconds())/float64(b.N), "cpu-µs/move")
		})
	}
}

// benchPlayer plays every seat of its table, creating a new table on node
// 1 (owner) whenever a game ends, and playing through pc.
type benchPlayer struct {
	b      *testing.B
	pc     *protocol.Client
	owner  *protocol.Client
	table  string
	latest map[game.Seat]*protocol.StateMsg
	seq    int
}

func (p *benchPlayer) request(c *protocol.Client, m protocol.ClientMsg, want string) protocol.ServerMsg {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.Send(ctx, m); err != nil {
		p.b.Fatal(err)
	}
	for {
		msg, raw, err := c.Next(ctx)
		if err != nil {
			p.b.Fatalf("waiting for %s: %v", want, err)
		}
		if e, ok := msg.(*protocol.ErrorMsg); ok {
			p.b.Fatalf("waiting for %s: %s", want, e.Error())
		}
		if msg.MessageType() == want {
			return msg
		}
		_ = raw
	}
}

func (p *benchPlayer) newTable() {
	seat := game.Seat(0)
	m := p.request(p.owner, &protocol.CreateReq{Type: "create", Game: "pisyedili", Options: quickOptions("pisyedili"), Seat: &seat}, "created")
	p.table = m.(*protocol.CreatedMsg).Table
	for s := 1; s < 4; s++ {
		seat := game.Seat(s)
		p.request(p.owner, &protocol.JoinReq{Type: "join", Table: p.table, Seat: &seat}, "joined")
	}
	p.latest = map[game.Seat]*protocol.StateMsg{}
	p.seq = 0
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	p.pc.Send(ctx, &protocol.WatchReq{Type: "watch", Table: p.table})
	p.await()
}

// await reads until every seat's state is at p.seq.
func (p *benchPlayer) await() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for {
		n := 0
		for _, st := range p.latest {
			if st.Seq >= p.seq {
				n++
			}
		}
		if n == 4 {
			return
		}
		p.read(ctx)
	}
}

// read reads one message.
func (p *benchPlayer) read(ctx context.Context) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	{
		msg, _, err := p.pc.Next(ctx)
		if err != nil {
			for s, st := range p.latest {
				p.b.Logf("seat %d: seq %d status %s to_act %v legal %v", s, st.Seq, st.Status, st.ToAct, st.Legal)
			}
			p.b.Fatalf("table %s at seq %d: %v", p.table, p.seq, err)
		}
		switch m := msg.(type) {
		case *protocol.StateMsg:
			if m.Table == p.table {
				p.latest[m.Seat] = m
				p.seq = max(p.seq, m.Seq)
			}
		case *protocol.AckMsg:
			p.seq = max(p.seq, m.Seq)
		case *protocol.ErrorMsg:
			p.b.Fatalf("table %s: %s", p.table, m.Error())
		}
	}
}

func (p *benchPlayer) move() {
	for range 100 {
		if p.tryMove() {
			return
		}
		// Nobody acts at this step (the table itself deals, or says the
		// game is over, at this seq or the next): wait for its message.
		p.read(context.Background())
	}
	p.b.Fatalf("table %s: no seat to act at seq %d", p.table, p.seq)
}

func (p *benchPlayer) tryMove() bool {
	for _, st := range p.latest {
		if st.Status == protocol.StatusFinished {
			p.newTable()
			break
		}
	}
	for s, st := range p.latest {
		if !slices.Contains(st.ToAct, s) || len(st.Legal) == 0 {
			continue
		}
		mv := st.Legal[0]
		for _, l := range st.Legal {
			if len(l) > 5 && l[:5] == "play " {
				mv = l // playing keeps the hands short
				break
			}
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := p.pc.Send(ctx, &protocol.MoveReq{Type: "move", Table: p.table, Seat: &s, Move: mv, ID: []byte(fmt.Sprintf("%d", st.Seq))})
		cancel()
		if err != nil {
			p.b.Fatal(err)
		}
		p.seq = st.Seq + 1
		p.await()
		return true
	}
	return false
}
