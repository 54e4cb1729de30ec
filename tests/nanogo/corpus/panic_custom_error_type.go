package main

import "fmt"

type AppError struct {
	Code int
	Msg  string
}

func (e *AppError) Error() string { return fmt.Sprintf("app error %d: %s", e.Code, e.Msg) }

func main() {
	var err error = &AppError{500, "internal"}
	panic(err)
}
