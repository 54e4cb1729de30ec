package main

import "fmt"

type Account struct {
	Owner   string
	Balance float64
}

func (a *Account) Deposit(x float64) { a.Balance += x }
func (a Account) Report() string {
	return fmt.Sprintf("%s: %.2f", a.Owner, a.Balance)
}

func main() {
	acc := &Account{Owner: "Ann"}
	dep := acc.Deposit
	for _, x := range []float64{10, 20.5, 0.25} {
		dep(x)
	}
	fmt.Println(acc.Report())
	report := acc.Report
	acc.Deposit(100)
	fmt.Println(report())
	fmt.Println(acc.Report())
	f := (*Account).Deposit
	f(acc, 1)
	fmt.Println(acc.Balance)
}
