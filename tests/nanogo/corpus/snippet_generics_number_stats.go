type Number interface {
	~int | ~int32 | ~int64 | ~float32 | ~float64
}

func Mean[T Number](xs []T) float64 {
	var sum T
	for _, x := range xs {
		sum += x
	}
	return float64(sum) / float64(len(xs))
}

func MinMax[T Number](xs []T) (T, T) {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		if x < lo {
			lo = x
		}
		if x > hi {
			hi = x
		}
	}
	return lo, hi
}

ints := []int{4, 8, 15, 16, 23, 42}
floats := []float32{1.5, -2.25, 3}
fmt.Printf("%.3f %.3f\n", Mean(ints), Mean(floats))
lo, hi := MinMax(ints)
flo, fhi := MinMax(floats)
fmt.Println(lo, hi, flo, fhi)
