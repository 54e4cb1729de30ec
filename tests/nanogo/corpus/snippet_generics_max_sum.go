type Number interface {
	int | int64 | float64
}

func Sum[T Number](xs []T) T {
	var s T
	for _, x := range xs {
		s += x
	}
	return s
}

func Max[T int | float64 | string](a, b T) T {
	if a > b {
		return a
	}
	return b
}

fmt.Println(Sum([]int{1, 2, 3}))
fmt.Println(Sum([]float64{1.1, 2.2}))
fmt.Println(Max("go", "rust"), Max(3, 9), Max(2.5, 1.5))
