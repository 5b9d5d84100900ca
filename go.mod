module github.com/ptorepl/ptorepl

go 1.24

require (
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/x448/float16 v0.8.4
	go.yaml.in/yaml/v3 v3.0.5 // indirect
)
