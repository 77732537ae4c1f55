package flussrpc

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestErrorCodeTable(t *testing.T) {
	tests := []struct {
		code      ErrorCode
		name      string
		retriable bool
		refresh   bool
	}{
		{-1, "UNKNOWN_SERVER_ERROR", false, false},
		{0, "NONE", false, false},
		{1, "NETWORK_EXCEPTION", true, true},
		{3, "CORRUPT_MESSAGE", true, false},
		{7, "TABLE_NOT_EXIST", false, false},
		{9, "SCHEMA_NOT_EXIST", true, false},
		{12, "NOT_LEADER_OR_FOLLOWER", true, true},
		{19, "LOG_OFFSET_OUT_OF_RANGE_EXCEPTION", false, false},
		{21, "UNKNOWN_TABLE_OR_BUCKET_EXCEPTION", true, true},
		{25, "REQUEST_TIME_OUT", true, false},
		{32, "DUPLICATE_SEQUENCE_EXCEPTION", false, false},
		{44, "LEADER_NOT_AVAILABLE_EXCEPTION", true, true},
		{46, "AUTHENTICATE_EXCEPTION", false, false},
		{51, "RETRIABLE_AUTHENTICATE_EXCEPTION", false, false},
		{59, "SEVER_TAG_ALREADY_EXIST_EXCEPTION", false, false},
		{65, "NOT_COORDINATOR_LEADER_EXCEPTION", false, false},
		{70, "DISK_WRITE_LOCKED", true, false},
		{72, "STORAGE_BACKPRESSURE_EXCEPTION", true, false},
		{73, "HISTORICAL_PARTITION_THROTTLED", true, false},
		{74, "UNKNOWN_SERVER_ERROR", false, false},
		{-7, "UNKNOWN_SERVER_ERROR", false, false},
	}
	for _, tt := range tests {
		if got := tt.code.Name(); got != tt.name {
			t.Errorf("%d.Name() = %q, want %q", tt.code, got, tt.name)
		}
		if got := tt.code.Retriable(); got != tt.retriable {
			t.Errorf("%d.Retriable() = %v", tt.code, got)
		}
		if got := tt.code.InvalidMetadata(); got != tt.refresh {
			t.Errorf("%d.InvalidMetadata() = %v", tt.code, got)
		}
	}
}

func TestErrorTableComplete(t *testing.T) {
	for c := ErrorCode(-1); c <= 73; c++ {
		if _, ok := codeTable[c]; !ok {
			t.Errorf("code %d missing", c)
		}
	}
	retriable := map[ErrorCode]bool{1: true, 3: true, 9: true, 10: true, 11: true, 12: true, 14: true,
		21: true, 25: true, 26: true, 28: true, 29: true, 44: true, 70: true, 72: true, 73: true}
	for c, info := range codeTable {
		if info.retriable != retriable[c] {
			t.Errorf("code %d retriable = %v", c, info.retriable)
		}
		if info.invalidMetadata && !info.retriable {
			t.Errorf("code %d: invalid-metadata codes are retriable", c)
		}
	}
}

func TestErrorIs(t *testing.T) {
	err := fmt.Errorf("wrapped: %w", &Error{Code: CodeTableNotExist, Message: "db.t"})
	if !errors.Is(err, ErrTableNotExist) {
		t.Error("errors.Is(TABLE_NOT_EXIST, ErrTableNotExist) = false")
	}
	if errors.Is(err, ErrDatabaseNotExist) {
		t.Error("different codes matched")
	}
	unknown := &Error{Code: 4242}
	if !errors.Is(unknown, ErrUnknownServerError) || unknown.Code != 4242 {
		t.Error("unknown codes must match ErrUnknownServerError and keep the raw code")
	}
	if !strings.Contains(unknown.Error(), "4242") {
		t.Errorf("message %q lacks the raw code", unknown.Error())
	}
	if errors.Is(err, context.Canceled) {
		t.Error("server error matched a context error")
	}
}

func TestErrorMessage(t *testing.T) {
	e := &Error{Code: CodeTableNotExist, Message: "Table 'a.b' does not exist.", API: APIKeyGetTableInfo}
	want := "fluss: TABLE_NOT_EXIST (7) from GET_TABLE_INFO: Table 'a.b' does not exist."
	if e.Error() != want {
		t.Errorf("got %q\nwant %q", e.Error(), want)
	}
	if got := (&Error{Code: CodeDatabaseNotExist}).Error(); !strings.Contains(got, "does not exist") {
		t.Errorf("empty message should fall back to a description: %q", got)
	}
}

func TestErrorFromCode(t *testing.T) {
	if ErrorFromCode(0, "") != nil {
		t.Error("code 0 is success")
	}
	err := ErrorFromCode(12, "not leader")
	if !errors.Is(err, ErrNotLeaderOrFollower) || !IsRetriable(err) || !IsInvalidMetadata(err) {
		t.Errorf("bucket error %v misclassified", err)
	}
}

func TestSafeToRetry(t *testing.T) {
	tests := []struct {
		name string
		err  error
		want bool
	}{
		{"nil", nil, false},
		{"dial", &TransportError{Op: "dial", Err: errors.New("refused")}, true},
		{"closed before send", fmt.Errorf("x: %w", &TransportError{Op: "closed"}), true},
		{"sent", &TransportError{Op: "read", MaybeSent: true, Err: errors.New("eof")}, false},
		{"server error", ErrTableNotExist, false},
		{"canceled", context.Canceled, false},
		{"transport wrapping deadline", &TransportError{Op: "dial", Err: context.DeadlineExceeded}, false},
		{"plain", errors.New("x"), false},
	}
	for _, tt := range tests {
		if got := SafeToRetry(tt.err); got != tt.want {
			t.Errorf("%s: SafeToRetry = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestTransportErrorIsNetwork(t *testing.T) {
	err := &TransportError{Addr: "h:1", Op: "read", MaybeSent: true, Err: errors.New("reset")}
	if !errors.Is(err, ErrNetwork) || errors.Is(err, ErrTableNotExist) {
		t.Error("transport errors should match ErrNetwork only")
	}
	if !IsRetriable(err) || !IsInvalidMetadata(err) {
		t.Error("transport errors are retriable and invalidate routing")
	}
	inner := &TransportError{Op: "read", MaybeSent: true, Err: &Error{Code: CodeCorruptMessage, ServerFailure: true}}
	var fe *Error
	if !errors.As(inner, &fe) || !errors.Is(inner, ErrCorruptMessage) {
		t.Error("a server failure inside a transport error must stay visible")
	}
}

// FuzzErrorCode checks that every int32 maps to a usable error.
func FuzzErrorCode(f *testing.F) {
	for _, c := range []int32{-1, 0, 1, 7, 51, 63, 64, 73, 74, -2, 1 << 30, -1 << 31} {
		f.Add(c, "message")
	}
	f.Fuzz(func(t *testing.T, code int32, msg string) {
		err := ErrorFromCode(code, msg)
		if code == 0 {
			if err != nil {
				t.Fatal("code 0 produced an error")
			}
			return
		}
		var fe *Error
		if !errors.As(err, &fe) || fe.Code != ErrorCode(code) {
			t.Fatal("raw code lost")
		}
		if fe.Error() == "" || fe.Code.Name() == "" {
			t.Fatal("empty text")
		}
		if _, known := codeTable[ErrorCode(code)]; !known {
			if !errors.Is(err, ErrUnknownServerError) || fe.Retriable() {
				t.Fatal("unknown code must behave as UNKNOWN_SERVER_ERROR")
			}
		}
	})
}

// FuzzDecodeServerError feeds arbitrary ErrorResponse bodies.
func FuzzDecodeServerError(f *testing.F) {
	f.Add([]byte{0x08, 0x07}, false)
	f.Add([]byte{0x08, 0x07, 0x12, 0x02, 'h', 'i'}, true)
	f.Add([]byte{}, false)
	f.Add([]byte{0x12, 0x80}, true)
	f.Fuzz(func(t *testing.T, body []byte, failure bool) {
		e := decodeServerError(body, APIKeyGetMetadata, failure)
		if e == nil || e.Code == CodeNone || e.ServerFailure != failure {
			t.Fatalf("bad decode: %+v", e)
		}
		_ = e.Error()
	})
}
