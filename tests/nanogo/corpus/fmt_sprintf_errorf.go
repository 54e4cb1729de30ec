package main

import (
	"errors"
	"fmt"
)

func main() {
	s := fmt.Sprintf("%s is %d years and %.1f%% done", "Go", 14, 99.5)
	fmt.Println(s)
	name := fmt.Sprint("a", 1, 2, "b")
	fmt.Println(name)
	line := fmt.Sprintln("x", 3)
	fmt.Printf("%q\n", line)
	base := errors.New("not found")
	err := fmt.Errorf("loading config: %w", base)
	fmt.Println(err)
	fmt.Println(errors.Unwrap(err) == base, errors.Is(err, base))
	err2 := fmt.Errorf("plain %v", base)
	fmt.Println(err2, errors.Is(err2, base), errors.Unwrap(err2) == nil)
	fmt.Printf("%v | %s | %q\n", err, err, err)
	var nilErr error
	fmt.Println(nilErr)
	fmt.Printf("%v\n", nilErr)
}
