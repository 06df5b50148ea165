// Command endpointgen writes the SDK's endpoint table from the OpenAPI
// documents in api/ (internal/endpointgen: core's descriptors, the
// simulator's operations and routes, the test kit's operation constants,
// docs/endpoints.md, the control document's Operation enum in
// api/sandbox.yaml and internal/fields' table of the documents' privacy
// decisions, from each property's x-rxdelivery-privacy). Run it with go generate in internal/core; a test
// fails when a written file is stale.
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/rxdelivery/rxdelivery-go/internal/endpointgen"
)

func main() {
	root := flag.String("root", "../..", "the module's root directory")
	flag.Parse()
	files, err := generate(*root)
	if err != nil {
		log.Fatal(err)
	}
	for path, b := range files {
		if err := os.WriteFile(filepath.Join(*root, path), b, 0o644); err != nil {
			log.Fatal(err)
		}
	}
}

// generate reads the documents in root's api/ and returns each generated
// file's contents by its path relative to root.
func generate(root string) (map[string][]byte, error) {
	ops, err := endpointgen.Read(filepath.Join(root, "api"), endpointgen.Documents)
	if err != nil {
		return nil, err
	}
	files, err := endpointgen.Generate(ops)
	if err != nil {
		return nil, err
	}
	kinds, err := endpointgen.Privacy(filepath.Join(root, "api"), endpointgen.Documents)
	if err != nil {
		return nil, err
	}
	if files["internal/fields/documents_gen.go"], err = endpointgen.FieldsTable(kinds); err != nil {
		return nil, err
	}
	control, err := os.ReadFile(filepath.Join(root, "api", "sandbox.yaml"))
	if err != nil {
		return nil, err
	}
	if files["api/sandbox.yaml"], err = endpointgen.ControlDocument(control, ops); err != nil {
		return nil, err
	}
	return files, nil
}
