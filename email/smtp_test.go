package email

import (
	"errors"
	"net"
	"slices"
	"testing"
)

func TestRCPTVerdict(t *testing.T) {
	tests := []struct {
		code int
		msg  string
		want verdict
	}{
		{250, "2.1.5 OK", verdictAccepted},
		{251, "User not local; will forward", verdictAccepted},
		{550, "5.1.1 no such user", verdictRejected},
		{551, "User not local", verdictRejected},
		{553, "mailbox name not allowed", verdictRejected},
		{550, "no such user", verdictRejected},
		{550, "5.7.1 client host blocked", verdictUnknown},
		{554, "5.7.1 relay access denied", verdictUnknown},
		{451, "4.7.1 greylisted", verdictUnknown},
		{452, "4.2.2 mailbox full", verdictUnknown},
		{354, "go ahead", verdictUnknown},
	}
	for _, tt := range tests {
		if got := rcptVerdict(tt.code, tt.msg); got != tt.want {
			t.Errorf("rcptVerdict(%d, %q) = %d, want %d", tt.code, tt.msg, got, tt.want)
		}
	}
}

func TestMXAnswer(t *testing.T) {
	tests := []struct {
		name  string
		recs  []*net.MX
		err   error
		state mailState
		hosts []string
	}{
		{"ByPreference", []*net.MX{{Host: "b.example.test.", Pref: 20}, {Host: "a.example.test.", Pref: 10}, {Host: "c.example.test.", Pref: 20}}, nil, mailYes, []string{"a.example.test", "b.example.test", "c.example.test"}},
		{"NXDomain", nil, errNXDomain, mailNo, nil},
		{"NoRecords", nil, nil, mailNo, nil},
		{"NullMX", []*net.MX{{Host: ".", Pref: 0}}, nil, mailNo, nil},
		{"Temporary", nil, errTempDNS, mailUnknown, nil},
		{"OtherError", nil, errors.New("i/o timeout"), mailUnknown, nil},
		{"PartialAnswer", []*net.MX{{Host: "a.example.test.", Pref: 10}}, errors.New("bad record"), mailYes, []string{"a.example.test"}},
	}
	for _, tt := range tests {
		a := mxAnswerOf(tt.recs, tt.err)
		if a.state != tt.state || !slices.Equal(a.hosts, tt.hosts) {
			t.Errorf("%s: got %d %q, want %d %q", tt.name, a.state, a.hosts, tt.state, tt.hosts)
		}
	}
}
