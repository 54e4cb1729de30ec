package main

import (
	"errors"
	"fmt"
)

var ErrNotFound = errors.New("not found")
var ErrPermission = errors.New("permission denied")

type QueryError struct {
	Query string
	Err   error
}

func (e *QueryError) Error() string { return e.Query + ": " + e.Err.Error() }
func (e *QueryError) Unwrap() error { return e.Err }

func find(id int) error {
	switch id {
	case 1:
		return nil
	case 2:
		return fmt.Errorf("find %d: %w", id, ErrNotFound)
	case 3:
		return &QueryError{"select", ErrPermission}
	}
	return fmt.Errorf("layer2: %w", fmt.Errorf("layer1: %w", ErrNotFound))
}

func main() {
	for id := 1; id <= 4; id++ {
		err := find(id)
		fmt.Printf("id=%d err=%v notfound=%v perm=%v\n", id, err, errors.Is(err, ErrNotFound), errors.Is(err, ErrPermission))
		var qe *QueryError
		if errors.As(err, &qe) {
			fmt.Println("  query error for", qe.Query)
		}
	}
	e := find(4)
	for e != nil {
		fmt.Println("chain:", e)
		e = errors.Unwrap(e)
	}
	fmt.Println(errors.New("x") == errors.New("x"))
}
