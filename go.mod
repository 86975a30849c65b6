module github.com/hotplex/hotplex

go 1.26.8

require (
	github.com/google/uuid v1.6.0
	github.com/spf13/cobra v1.10.2
	go.uber.org/goleak v1.3.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	mvdan.cc/sh/v3 v3.14.1 // indirect
)
