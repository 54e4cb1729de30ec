package main

import (
	"errors"
	"fmt"
)

type Transaction struct {
	Kind   string
	Amount float64
}

type BankAccount struct {
	Owner   string
	balance float64
	history []Transaction
}

func NewAccount(owner string, initial float64) *BankAccount {
	a := &BankAccount{Owner: owner}
	a.Deposit(initial)
	return a
}

func (a *BankAccount) Deposit(amount float64) error {
	if amount <= 0 {
		return errors.New("deposit must be positive")
	}
	a.balance += amount
	a.history = append(a.history, Transaction{"deposit", amount})
	return nil
}

func (a *BankAccount) Withdraw(amount float64) error {
	if amount > a.balance {
		return fmt.Errorf("cannot withdraw %.2f: balance is %.2f", amount, a.balance)
	}
	a.balance -= amount
	a.history = append(a.history, Transaction{"withdraw", amount})
	return nil
}

func (a *BankAccount) Balance() float64 { return a.balance }

func Transfer(from, to *BankAccount, amount float64) error {
	if err := from.Withdraw(amount); err != nil {
		return fmt.Errorf("transfer failed: %w", err)
	}
	return to.Deposit(amount)
}

func main() {
	alice := NewAccount("Alice", 100)
	bob := NewAccount("Bob", 50)
	if err := Transfer(alice, bob, 30); err != nil {
		fmt.Println(err)
	}
	if err := Transfer(bob, alice, 500); err != nil {
		fmt.Println(err)
	}
	if err := alice.Deposit(-5); err != nil {
		fmt.Println("error:", err)
	}
	fmt.Printf("%s: %.2f\n", alice.Owner, alice.Balance())
	fmt.Printf("%s: %.2f\n", bob.Owner, bob.Balance())
	for i, t := range alice.history {
		fmt.Printf("%d. %-8s %7.2f\n", i+1, t.Kind, t.Amount)
	}
	fmt.Printf("%+v\n", *bob)
}
