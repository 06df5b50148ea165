package testutil

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/rxdelivery/rxdelivery-go/internal/endpointgen"
)

// AnyBody returns a JSON object that the decoder of every endpoint reads as
// a success: the members of the example of every success answer the
// platform documents in api/ give (the first example of each, in the
// documents' order), merged at the top level, the first document to give a
// member keeping it. A new endpoint's answer is in it as soon as its
// document has an example: a test that answers every endpoint with one
// body needs no edit. It panics when the documents cannot be read.
func AnyBody() string {
	merged := map[string]any{}
	for _, d := range endpointgen.Documents {
		b, err := os.ReadFile(filepath.Join(Root(), "api", d.File))
		if err != nil {
			panic("testutil: " + err.Error())
		}
		var doc struct {
			Paths map[string]map[string]yaml.Node `yaml:"paths"`
		}
		if err := yaml.Unmarshal(b, &doc); err != nil {
			panic(fmt.Sprintf("testutil: %s: %v", d.File, err))
		}
		for _, path := range sortedKeys(doc.Paths) {
			for _, method := range sortedKeys(doc.Paths[path]) {
				if method == "parameters" {
					continue
				}
				var op operationExamples
				node := doc.Paths[path][method]
				if err := node.Decode(&op); err != nil {
					panic(fmt.Sprintf("testutil: %s %s %s: %v", d.File, method, path, err))
				}
				for _, status := range sortedKeys(op.Responses) {
					if !strings.HasPrefix(status, "2") {
						continue
					}
					for _, c := range op.Responses[status].Content {
						example := c.Example
						if example == nil {
							for _, name := range sortedKeys(c.Examples) {
								example = c.Examples[name].Value
								break
							}
						}
						obj, ok := example.(map[string]any)
						if !ok {
							continue
						}
						for k, v := range obj {
							if _, have := merged[k]; !have {
								merged[k] = v
							}
						}
					}
				}
			}
		}
	}
	b, err := json.Marshal(merged)
	if err != nil {
		panic("testutil: " + err.Error())
	}
	return string(b)
}

// operationExamples is what AnyBody reads of an operation: its answers'
// examples.
type operationExamples struct {
	Responses map[string]struct {
		Content map[string]struct {
			Example  any `yaml:"example"`
			Examples map[string]struct {
				Value any `yaml:"value"`
			} `yaml:"examples"`
		} `yaml:"content"`
	} `yaml:"responses"`
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
