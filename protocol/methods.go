package protocol

import "encoding/json"

// Each message writes its own type, whatever the Type field holds, so that
// a caller fills only the fields (plain is the type without its methods,
// which keeps MarshalJSON from calling itself).

// MessageType is TypeLobby.
func (LobbyReq) MessageType() string { return TypeLobby }

// MarshalJSON writes the message with its type.
func (m LobbyReq) MarshalJSON() ([]byte, error) {
	type plain LobbyReq
	m.Type = TypeLobby
	return json.Marshal(plain(m))
}

func (m LobbyReq) RequestID() json.RawMessage { return m.ID }

// MessageType is TypeCreate.
func (CreateReq) MessageType() string { return TypeCreate }

// MarshalJSON writes the message with its type.
func (m CreateReq) MarshalJSON() ([]byte, error) {
	type plain CreateReq
	m.Type = TypeCreate
	return json.Marshal(plain(m))
}

func (m CreateReq) RequestID() json.RawMessage { return m.ID }

// MessageType is TypeJoin.
func (JoinReq) MessageType() string { return TypeJoin }

// MarshalJSON writes the message with its type.
func (m JoinReq) MarshalJSON() ([]byte, error) {
	type plain JoinReq
	m.Type = TypeJoin
	return json.Marshal(plain(m))
}

func (m JoinReq) RequestID() json.RawMessage { return m.ID }

func (m JoinReq) TableID() string { return m.Table }

// MessageType is TypeLeave.
func (LeaveReq) MessageType() string { return TypeLeave }

// MarshalJSON writes the message with its type.
func (m LeaveReq) MarshalJSON() ([]byte, error) {
	type plain LeaveReq
	m.Type = TypeLeave
	return json.Marshal(plain(m))
}

func (m LeaveReq) RequestID() json.RawMessage { return m.ID }

func (m LeaveReq) TableID() string { return m.Table }

// MessageType is TypeAddBot.
func (AddBotReq) MessageType() string { return TypeAddBot }

// MarshalJSON writes the message with its type.
func (m AddBotReq) MarshalJSON() ([]byte, error) {
	type plain AddBotReq
	m.Type = TypeAddBot
	return json.Marshal(plain(m))
}

func (m AddBotReq) RequestID() json.RawMessage { return m.ID }

func (m AddBotReq) TableID() string { return m.Table }

// MessageType is TypeRemoveBot.
func (RemoveBotReq) MessageType() string { return TypeRemoveBot }

// MarshalJSON writes the message with its type.
func (m RemoveBotReq) MarshalJSON() ([]byte, error) {
	type plain RemoveBotReq
	m.Type = TypeRemoveBot
	return json.Marshal(plain(m))
}

func (m RemoveBotReq) RequestID() json.RawMessage { return m.ID }

func (m RemoveBotReq) TableID() string { return m.Table }

// MessageType is TypeWatch.
func (WatchReq) MessageType() string { return TypeWatch }

// MarshalJSON writes the message with its type.
func (m WatchReq) MarshalJSON() ([]byte, error) {
	type plain WatchReq
	m.Type = TypeWatch
	return json.Marshal(plain(m))
}

func (m WatchReq) RequestID() json.RawMessage { return m.ID }

func (m WatchReq) TableID() string { return m.Table }

// MessageType is TypeUnwatch.
func (UnwatchReq) MessageType() string { return TypeUnwatch }

// MarshalJSON writes the message with its type.
func (m UnwatchReq) MarshalJSON() ([]byte, error) {
	type plain UnwatchReq
	m.Type = TypeUnwatch
	return json.Marshal(plain(m))
}

func (m UnwatchReq) RequestID() json.RawMessage { return m.ID }

func (m UnwatchReq) TableID() string { return m.Table }

// MessageType is TypeMove.
func (MoveReq) MessageType() string { return TypeMove }

// MarshalJSON writes the message with its type.
func (m MoveReq) MarshalJSON() ([]byte, error) {
	type plain MoveReq
	m.Type = TypeMove
	return json.Marshal(plain(m))
}

func (m MoveReq) RequestID() json.RawMessage { return m.ID }

func (m MoveReq) TableID() string { return m.Table }

// MessageType is TypeHint.
func (HintReq) MessageType() string { return TypeHint }

// MarshalJSON writes the message with its type.
func (m HintReq) MarshalJSON() ([]byte, error) {
	type plain HintReq
	m.Type = TypeHint
	return json.Marshal(plain(m))
}

func (m HintReq) RequestID() json.RawMessage { return m.ID }

func (m HintReq) TableID() string { return m.Table }

// MessageType is TypePing.
func (PingReq) MessageType() string { return TypePing }

// MarshalJSON writes the message with its type.
func (m PingReq) MarshalJSON() ([]byte, error) {
	type plain PingReq
	m.Type = TypePing
	return json.Marshal(plain(m))
}

func (m PingReq) RequestID() json.RawMessage { return m.ID }

// MessageType is TypeWelcome.
func (WelcomeMsg) MessageType() string { return TypeWelcome }

// MarshalJSON writes the message with its type.
func (m WelcomeMsg) MarshalJSON() ([]byte, error) {
	type plain WelcomeMsg
	m.Type = TypeWelcome
	return json.Marshal(plain(m))
}

// MessageType is TypeState.
func (StateMsg) MessageType() string { return TypeState }

// MarshalJSON writes the message with its type.
func (m StateMsg) MarshalJSON() ([]byte, error) {
	type plain StateMsg
	m.Type = TypeState
	return json.Marshal(plain(m))
}

// MessageType is TypeAck.
func (AckMsg) MessageType() string { return TypeAck }

// MarshalJSON writes the message with its type.
func (m AckMsg) MarshalJSON() ([]byte, error) {
	type plain AckMsg
	m.Type = TypeAck
	return json.Marshal(plain(m))
}

// MessageType is TypeError.
func (ErrorMsg) MessageType() string { return TypeError }

// MarshalJSON writes the message with its type.
func (m ErrorMsg) MarshalJSON() ([]byte, error) {
	type plain ErrorMsg
	m.Type = TypeError
	return json.Marshal(plain(m))
}

// MessageType is TypeLobby.
func (LobbyMsg) MessageType() string { return TypeLobby }

// MarshalJSON writes the message with its type.
func (m LobbyMsg) MarshalJSON() ([]byte, error) {
	type plain LobbyMsg
	m.Type = TypeLobby
	return json.Marshal(plain(m))
}

// MessageType is TypeCreated.
func (CreatedMsg) MessageType() string { return TypeCreated }

// MarshalJSON writes the message with its type.
func (m CreatedMsg) MarshalJSON() ([]byte, error) {
	type plain CreatedMsg
	m.Type = TypeCreated
	return json.Marshal(plain(m))
}

// MessageType is TypeJoined.
func (JoinedMsg) MessageType() string { return TypeJoined }

// MarshalJSON writes the message with its type.
func (m JoinedMsg) MarshalJSON() ([]byte, error) {
	type plain JoinedMsg
	m.Type = TypeJoined
	return json.Marshal(plain(m))
}

// MessageType is TypeHint.
func (HintMsg) MessageType() string { return TypeHint }

// MarshalJSON writes the message with its type.
func (m HintMsg) MarshalJSON() ([]byte, error) {
	type plain HintMsg
	m.Type = TypeHint
	return json.Marshal(plain(m))
}

// MessageType is TypePong.
func (PongMsg) MessageType() string { return TypePong }

// MarshalJSON writes the message with its type.
func (m PongMsg) MarshalJSON() ([]byte, error) {
	type plain PongMsg
	m.Type = TypePong
	return json.Marshal(plain(m))
}
