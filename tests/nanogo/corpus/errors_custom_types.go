package main

import (
	"errors"
	"fmt"
	"strconv"
)

type ValidationError struct {
	Field string
	Value int
}

func (v ValidationError) Error() string {
	return fmt.Sprintf("invalid %s: %d", v.Field, v.Value)
}

func validateAge(age int) error {
	if age < 0 || age > 150 {
		return ValidationError{"age", age}
	}
	return nil
}

func parse(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0, fmt.Errorf("parse %q: %w", s, err)
	}
	return n, validateAge(n)
}

func main() {
	for _, in := range []string{"42", "-5", "abc", "200", ""} {
		n, err := parse(in)
		if err != nil {
			var ve ValidationError
			var ne *strconv.NumError
			switch {
			case errors.As(err, &ve):
				fmt.Println("validation:", ve.Field, ve.Value, "|", err)
			case errors.As(err, &ne):
				fmt.Println("numerr:", ne.Func, ne.Num, ne.Err, "|", err)
			}
			fmt.Println(errors.Is(err, strconv.ErrSyntax))
			continue
		}
		fmt.Println("ok", n)
	}
}
