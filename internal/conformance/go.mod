module github.com/rxdelivery/rxdelivery-go/internal/conformance

go 1.25.0

require (
	github.com/getkin/kin-openapi v0.153.0
	go.yaml.in/yaml/v3 v3.0.6
)

require (
	github.com/go-openapi/jsonpointer v0.22.5 // indirect
	github.com/go-openapi/swag/jsonname v0.25.5 // indirect
	github.com/gorilla/mux v1.8.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	go.yaml.in/yaml/v4 v4.0.0 // indirect
	golang.org/x/text v0.41.0 // indirect
)
