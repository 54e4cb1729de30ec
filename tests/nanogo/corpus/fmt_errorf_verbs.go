package main

import (
	"errors"
	"fmt"
)

type Op struct {
	Name string
	Code int
}

func main() {
	op := Op{"read", 5}
	err := fmt.Errorf("op %+v failed after %d tries (%.1f%%): %w", op, 3, 66.666, errors.New("timeout"))
	fmt.Println(err)
	e2 := fmt.Errorf("%w and %w", errors.New("a"), errors.New("b"))
	fmt.Println(e2 != nil)
	e3 := fmt.Errorf("value %d", "str")
	fmt.Println(e3)
	e4 := fmt.Errorf("no wrap %v", nil)
	fmt.Println(e4, errors.Unwrap(e4))
}
