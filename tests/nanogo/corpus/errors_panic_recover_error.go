package main

import (
	"errors"
	"fmt"
)

var ErrBad = errors.New("bad input")

func risky(n int) (err error) {
	defer func() {
		if r := recover(); r != nil {
			if e, ok := r.(error); ok {
				err = fmt.Errorf("recovered error: %w", e)
			} else {
				err = fmt.Errorf("recovered: %v", r)
			}
		}
	}()
	switch n {
	case 0:
		panic(ErrBad)
	case 1:
		panic("string panic")
	case 2:
		var p *struct{ x int }
		fmt.Println(p.x)
	}
	return nil
}

func main() {
	for i := 0; i < 4; i++ {
		err := risky(i)
		fmt.Println(i, err, errors.Is(err, ErrBad))
	}
}
