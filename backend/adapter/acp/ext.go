package acp

// Hermes Desk's ACP extension methods. ACP reserves method names that start
// with "_" for extensions; agents that do not know ours never send them, and
// we never send them to agents that did not ask.

// ClarifyMethod is an agent→client request asking the person a question:
//
//	→ {"jsonrpc":"2.0","id":7,"method":"_hermesdesk/clarify",
//	   "params":{"sessionId":"…","question":"Which colour?","choices":["red","blue"]}}
//	← {"jsonrpc":"2.0","id":7,"result":{"outcome":"answered","answer":"red"}}
//	← {"jsonrpc":"2.0","id":7,"result":{"outcome":"cancelled"}}   (turn cancelled)
//
// It exists because ACP's own elicitation is still unstable and form-based,
// and most agents do not implement it. The demo agent uses it; the adapter
// reports Capabilities.Clarify only for agents configured WithClarify.
const ClarifyMethod = "_hermesdesk/clarify"

// ClarifyParams are the params of ClarifyMethod.
type ClarifyParams struct {
	SessionID string   `json:"sessionId"`
	Question  string   `json:"question"`
	Choices   []string `json:"choices,omitempty"`
}

// ClarifyResult is the result of ClarifyMethod.
type ClarifyResult struct {
	Outcome string `json:"outcome"` // "answered" or "cancelled"
	Answer  string `json:"answer,omitempty"`
}

// Clarify outcomes.
const (
	ClarifyAnswered  = "answered"
	ClarifyCancelled = "cancelled"
)
