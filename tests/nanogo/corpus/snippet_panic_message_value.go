balance := 50
if balance < 100 {
	panic(fmt.Sprintf("balance too low: %d", balance))
}
