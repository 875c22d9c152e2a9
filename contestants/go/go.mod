module taskbench/contestants/go

go 1.26
