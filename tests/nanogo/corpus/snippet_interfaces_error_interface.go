type InsufficientFunds struct {
	Need, Have float64
}

func (e InsufficientFunds) Error() string {
	return fmt.Sprintf("insufficient funds: need %.2f, have %.2f", e.Need, e.Have)
}

func withdraw(balance, amount float64) (float64, error) {
	if amount > balance {
		return balance, InsufficientFunds{amount, balance}
	}
	return balance - amount, nil
}

bal := 100.0
var err error
for _, amt := range []float64{30, 50, 40} {
	bal, err = withdraw(bal, amt)
	if err != nil {
		fmt.Println("Error:", err)
		var ife InsufficientFunds
		if errors.As(err, &ife) {
			fmt.Println("short by", ife.Need-ife.Have)
		}
		continue
	}
	fmt.Printf("withdrew %.0f, balance %.2f\n", amt, bal)
}
