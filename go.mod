module github.com/ptorepl/ptorepl

go 1.24
