type Ordered interface {
	~int | ~int8 | ~int16 | ~int32 | ~int64 | ~uint | ~float32 | ~float64 | ~string
}

func Clamp[T Ordered](v, lo, hi T) T {
	if v < lo {
		return lo
	}
	if v > hi {
		return hi
	}
	return v
}

func MaxOf[T Ordered](first T, rest ...T) T {
	m := first
	for _, r := range rest {
		if r > m {
			m = r
		}
	}
	return m
}

fmt.Println(Clamp(15, 0, 10), Clamp(-2.5, -1.0, 1.0), Clamp("m", "a", "k"))
fmt.Println(MaxOf(3), MaxOf(3, 9, 2), MaxOf("pear", "apple", "zoo"), MaxOf[float64](1, 2.5))
type Score int
fmt.Println(MaxOf(Score(4), Score(7)))
