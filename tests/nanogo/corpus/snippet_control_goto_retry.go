attempts := 0
start:
attempts++
if attempts < 3 {
	fmt.Println("attempt", attempts, "failed")
	goto start
}
fmt.Println("succeeded after", attempts)
