func divmod(a, b int) (quotient, remainder int) {
	quotient = a / b
	remainder = a % b
	return
}

func stats(nums ...float64) (min, max, mean float64) {
	min, max = nums[0], nums[0]
	total := 0.0
	for _, n := range nums {
		total += n
		if n < min {
			min = n
		}
		if n > max {
			max = n
		}
	}
	return min, max, total / float64(len(nums))
}

q, r := divmod(47, 6)
fmt.Println(q, r)
lo, hi, avg := stats(4, 8, 15, 16, 23, 42)
fmt.Printf("min=%v max=%v mean=%.3f\n", lo, hi, avg)
