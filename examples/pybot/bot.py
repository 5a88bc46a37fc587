#!/usr/bin/env python3
"""A Cardroom bot in Python: it plays uniformly random legal moves.

It is the Python twin of examples/randombot (Go) and the example of
docs/bots.md, "Writing a bot in any language". It needs Python 3.8 or later
and one library, websockets (install it with `pip install websockets`, or
on Debian and Ubuntu `apt install python3-websockets`); everything else is
the standard library.

First run: make a bot account from a name and a password (the account is
claimed if it does not exist yet), print its API token, and play a quick
game against the room's bots:

    python3 bot.py --url http://localhost:8080 --name MyPyBot --password 'a long password' --quick papayoo

Later runs: connect with the token alone and join a table someone opened:

    CARDROOM_BOT_TOKEN=bot_... python3 bot.py --table t_abc123
"""

import argparse
import asyncio
import json
import os
import random
import sys
import urllib.error
import urllib.request

try:  # websockets 13 and later
    from websockets.asyncio.client import connect as ws_connect

    HEADERS = "additional_headers"
except ImportError:  # websockets 10 to 12 (Debian 12's is 10.4)
    from websockets import connect as ws_connect

    HEADERS = "extra_headers"
from websockets.exceptions import ConnectionClosed, InvalidHandshake


class RoomError(Exception):
    """An error answer of the room: HTTP status, code and message."""

    def __init__(self, status, code, message):
        super().__init__(f"HTTP {status} {code}: {message}")
        self.status, self.code = status, code


def api(base, method, path, token=None, body=None):
    """One HTTP request to the room's API; the decoded JSON answer."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    if body is not None:
        req.add_header("Content-Type", "application/json")
    if token:
        req.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(req, timeout=15) as resp:
            return json.load(resp)
    except urllib.error.HTTPError as e:
        try:
            err = json.load(e)["error"]
        except Exception:
            err = {"code": "", "message": e.reason}
        raise RoomError(e.code, err.get("code"), err.get("message")) from None


def bot_token(args):
    """The API token: --token, or a new one of the account --name."""
    if args.token:
        return args.token
    if not (args.name and args.password):
        sys.exit("give --token (or CARDROOM_BOT_TOKEN), or --name and --password to make a bot account")
    creds = {"name": args.name, "password": args.password}
    try:
        session = api(args.url, "POST", "/api/login", body=creds)["token"]
    except RoomError as e:
        if e.code != "bad_credentials":
            raise
        # No such account yet: a guest session, then claim its name.
        session = api(args.url, "POST", "/api/session", body={"name": args.name})["token"]
        api(args.url, "POST", "/api/account", session, {"password": args.password})
    tok = api(args.url, "POST", "/api/account/bot", session, {"label": "pybot"})
    # Shown once: the room keeps only its hash.
    print("bot token (keep it; use it with --token):", tok["token"], flush=True)
    return tok["token"]


async def play(args, token, table):
    """Join the table and play until its game ends; reconnect after drops."""
    rng = random.Random(args.seed)
    ws_url = "ws" + args.url.rstrip("/")[len("http"):] + "/ws"
    headers = {HEADERS: {"Authorization": "Bearer " + token}}
    drops = 0
    while True:
        try:
            # max_size: a state message can list many moves.
            async with ws_connect(ws_url, max_size=1 << 24, **headers) as ws:
                welcome = json.loads(await ws.recv())
                print(f"connected as {welcome['name']} ({welcome['player']})", file=sys.stderr)
                # Join: a seat we already hold (quick play, a reconnect) is
                # returned, and the table's state follows.
                await ws.send(json.dumps({"type": "join", "table": table, "id": "join"}))
                last_seq = -1
                sent = None  # the last move sent, to send again if dropped
                async for raw in ws:
                    msg = json.loads(raw)
                    kind = msg.get("type")
                    if kind == "error":
                        code = msg.get("code")
                        print(f"error {code}: {msg.get('message')}", file=sys.stderr)
                        if code == "unauthorized":
                            sys.exit("the token stopped working (revoked): stop, do not reconnect")
                        if code in ("forbidden", "no_table", "table_full", "not_open"):
                            sys.exit(msg.get("message"))
                        if code == "rate_limited":
                            # Too fast: the room dropped the message. Wait as
                            # long as it says (or a moment) and send the move
                            # again: the table does not move on without it.
                            retry = (msg.get("limit") or {}).get("retry") or 0.25
                            await asyncio.sleep(retry)
                            if sent is not None:
                                await ws.send(sent)
                        # Anything else (a stale move: not_your_turn,
                        # illegal) waits for the next state.
                    elif kind == "state" and msg.get("table") == table:
                        if msg["status"] == "finished":
                            print("game over:", json.dumps(msg["result"]), flush=True)
                            return
                        # legal lists our moves when we must act (with a
                        # "pick", only its first few: enough to play one).
                        legal = msg.get("legal") or []
                        if legal and msg["seq"] > last_seq:
                            last_seq = msg["seq"]
                            move = rng.choice(legal)
                            sent = json.dumps({"type": "move", "table": table, "move": move, "id": str(msg["seq"])})
                            await ws.send(sent)
        except InvalidHandshake as e:
            # InvalidStatusCode (websockets < 14) has status_code;
            # InvalidStatus (14 and later) has response.status_code.
            status = getattr(e, "status_code", None) or getattr(getattr(e, "response", None), "status_code", None)
            if status == 401:
                sys.exit("the token was refused (revoked or mistyped)")
            err = e
        except (ConnectionClosed, OSError) as e:
            err = e
        drops += 1
        if drops > 5:
            raise SystemExit(f"connection lost too often: {err}")
        print(f"connection lost ({err}); reconnecting", file=sys.stderr)
        await asyncio.sleep(drops)


def main():
    p = argparse.ArgumentParser(description="A Cardroom bot that plays random legal moves.")
    p.add_argument("--url", default="http://localhost:8080", help="the room's address")
    p.add_argument("--token", default=os.environ.get("CARDROOM_BOT_TOKEN"), help="the bot account's API token (bot_...)")
    p.add_argument("--name", help="without --token: the account to make a bot of")
    p.add_argument("--password", help="without --token: the account's password")
    p.add_argument("--table", help="the table to join (its first free seat)")
    p.add_argument("--quick", help="quick-play this game instead (with the room's bots)")
    p.add_argument("--options", default="", help="game options for --quick, e.g. rounds=1")
    p.add_argument("--seed", type=int, default=None, help="random seed")
    args = p.parse_args()
    token = bot_token(args)
    table = args.table
    if args.quick:
        opts = dict(kv.split("=", 1) for kv in args.options.replace(",", " ").split() if "=" in kv)
        table = api(args.url, "POST", "/api/quickplay", token, {"game": args.quick, "options": opts})["id"]
    if not table:
        sys.exit("give --table or --quick")
    print(f"playing at table {table} (watch it at {args.url}/?table={table})", file=sys.stderr)
    asyncio.run(play(args, token, table))


if __name__ == "__main__":
    main()
