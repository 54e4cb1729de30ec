func Index[T comparable](s []T, x T) int {
	for i, v := range s {
		if v == x {
			return i
		}
	}
	return -1
}

func Reverse[T any](s []T) []T {
	out := make([]T, len(s))
	for i, v := range s {
		out[len(s)-1-i] = v
	}
	return out
}

fmt.Println(Index([]string{"a", "b", "c"}, "c"), Index([]int{1, 2}, 5))
fmt.Println(Reverse([]int{1, 2, 3}), Reverse([]string{"x", "y"}))
