makeCounter := func() func() int {
	count := 0
	return func() int {
		count++
		return count
	}
}
c1 := makeCounter()
c2 := makeCounter()
fmt.Println(c1(), c1(), c1())
fmt.Println(c2())
