package main

import (
	"errors"
	"fmt"
)

type NotFoundError struct{ Name string }

func (e NotFoundError) Error() string { return e.Name + " not found" }

func (e NotFoundError) Is(target error) bool {
	t, ok := target.(NotFoundError)
	return ok && (t.Name == "" || t.Name == e.Name)
}

func main() {
	err := fmt.Errorf("lookup: %w", NotFoundError{"bob"})
	fmt.Println(err)
	fmt.Println(errors.Is(err, NotFoundError{}))
	fmt.Println(errors.Is(err, NotFoundError{"bob"}))
	fmt.Println(errors.Is(err, NotFoundError{"amy"}))
	var target NotFoundError
	fmt.Println(errors.As(err, &target), target.Name)
	var nilErr error
	fmt.Println(errors.Is(nilErr, nil), errors.Unwrap(nilErr))
	wrapped := fmt.Errorf("a: %w", fmt.Errorf("b: %v", NotFoundError{"x"}))
	fmt.Println(wrapped, errors.Is(wrapped, NotFoundError{}))
}
