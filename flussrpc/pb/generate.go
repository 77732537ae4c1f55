package pb

//go:generate protoc --proto_path=. --go_out=. --go_opt=paths=source_relative fluss_api.proto
