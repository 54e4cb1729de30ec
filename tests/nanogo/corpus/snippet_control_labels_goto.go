outer:
for i := 0; i < 5; i++ {
	for j := 0; j < 5; j++ {
		if i*j == 6 {
			fmt.Println("found", i, j)
			break outer
		}
		if j > i {
			continue outer
		}
	}
}
n := 0
retry:
n++
if n < 3 {
	goto retry
}
fmt.Println("n =", n)
