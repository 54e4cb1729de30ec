type Stack[T any] struct {
	items []T
}

func (s *Stack[T]) Push(v T) { s.items = append(s.items, v) }

func (s *Stack[T]) Pop() (T, bool) {
	var zero T
	if len(s.items) == 0 {
		return zero, false
	}
	v := s.items[len(s.items)-1]
	s.items = s.items[:len(s.items)-1]
	return v, true
}

s := &Stack[string]{}
s.Push("first")
s.Push("second")
for {
	v, ok := s.Pop()
	if !ok {
		break
	}
	fmt.Println(v)
}
ints := Stack[int]{}
ints.Push(42)
fmt.Printf("%+v\n", ints)
