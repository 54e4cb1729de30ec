n := 9875
sum, rev := 0, 0
for m := n; m > 0; m /= 10 {
	d := m % 10
	sum += d
	rev = rev*10 + d
}
fmt.Println("digit sum:", sum, "reversed:", rev)
fmt.Println("armstrong 153:", 1*1*1+5*5*5+3*3*3 == 153)
