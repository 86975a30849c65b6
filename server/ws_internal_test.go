package server

import "testing"

func FuzzDecodeWSRequest(f *testing.F) {
	for _, s := range []string{
		`{"request_id":"1","type":"execute","session_id":"s","prompt":"hi"}`,
		`{"request_id":"2","type":"subscribe","session_id":"s","after":3}`,
		`{"request_id":"3","type":"unsubscribe","target":"2"}`,
		`{"request_id":"4","type":"ping"}`, `{}`, `[]`, `null`, `{"request_id":1}`, "\x00", `{"a":1}{"b":2}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		req, err := decodeWSRequest(b)
		if err != nil {
			if err.Code == "" || err.Message == "" || err.Status != 400 {
				t.Fatalf("unclear error %+v", err)
			}
			return
		}
		if req.RequestID == "" || !wsRequestTypes[req.Type] {
			t.Fatalf("accepted an invalid request %+v", req)
		}
	})
}
