module github.com/ptorepl/ptorepl

go 1.24

require (
	github.com/chzyer/readline v1.5.1
	github.com/stretchr/testify v1.12.1
	github.com/traefik/yaegi v0.16.1
	github.com/x448/float16 v0.8.4
)

require (
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sys v0.0.0-20220310020820-b874c991c1a5 // indirect
)

tool github.com/traefik/yaegi/cmd/yaegi
