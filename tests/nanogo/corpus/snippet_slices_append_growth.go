var s []int
prevCap := -1
for i := 0; i < 2000; i++ {
	s = append(s, i)
	if cap(s) != prevCap {
		fmt.Println("len", len(s), "cap", cap(s))
		prevCap = cap(s)
	}
}
