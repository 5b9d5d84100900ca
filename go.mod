module github.com/ptorepl/ptorepl

go 1.24

require (
	github.com/chzyer/readline v1.5.1
	github.com/creack/pty v1.1.24
	github.com/go-zeromq/zmq4 v0.17.0
	github.com/stretchr/testify v1.12.1
	github.com/traefik/yaegi v0.16.1
	github.com/x448/float16 v0.8.4
)

require (
	github.com/go-zeromq/goczmq/v4 v4.2.2 // indirect
	go.yaml.in/yaml/v3 v3.0.5 // indirect
	golang.org/x/sync v0.7.0 // indirect
	golang.org/x/sys v0.5.0 // indirect
	golang.org/x/text v0.15.0 // indirect
)

tool github.com/traefik/yaegi/cmd/yaegi
