package api_test

import (
	"os"
	"strings"
	"testing"
)

// TestDocsShowTheClientsSerializer checks that the query serializer
// docs/api.md shows is the one of the client CI runs against the simulator
// (typescript/sandbox-client.ts, run by .ci/openapi.sh), line for line.
func TestDocsShowTheClientsSerializer(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	program, err := os.ReadFile("typescript/sandbox-client.ts")
	if err != nil {
		t.Fatal(err)
	}
	const start = "export function serializeQuery("
	i := strings.Index(string(doc), start)
	if i < 0 {
		t.Fatal("docs/api.md does not show serializeQuery")
	}
	shown := string(doc)[i:]
	end := strings.Index(shown, "\n}\n")
	if end < 0 {
		t.Fatal("docs/api.md: serializeQuery has no end")
	}
	shown = shown[:end+3]
	if !strings.Contains(string(program), shown) {
		t.Errorf("docs/api.md shows a serializeQuery that is not typescript/sandbox-client.ts's:\n%s", shown)
	}
}
