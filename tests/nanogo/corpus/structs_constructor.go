package main

import (
	"errors"
	"fmt"
)

type Stack struct {
	items []int
}

func NewStack() *Stack {
	return &Stack{}
}

func (s *Stack) Push(v int) { s.items = append(s.items, v) }

func (s *Stack) Pop() (int, error) {
	if len(s.items) == 0 {
		return 0, errors.New("stack is empty")
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, nil
}

func (s *Stack) Len() int { return len(s.items) }

func main() {
	s := NewStack()
	for i := 1; i <= 3; i++ {
		s.Push(i * 10)
	}
	fmt.Println("len", s.Len())
	for {
		v, err := s.Pop()
		if err != nil {
			fmt.Println("error:", err)
			break
		}
		fmt.Println("popped", v)
	}
}
