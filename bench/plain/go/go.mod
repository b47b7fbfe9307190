module cryptobench.local/plain

go 1.18
