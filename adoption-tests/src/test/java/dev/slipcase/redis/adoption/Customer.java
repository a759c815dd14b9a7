package dev.slipcase.redis.adoption;

import java.util.Objects;

/** A customer, a plain JavaBean. */
public class Customer {

	private String name;

	private int orders;

	public Customer() {
	}

	public Customer(String name, int orders) {
		this.name = name;
		this.orders = orders;
	}

	public String getName() {
		return this.name;
	}

	public void setName(String name) {
		this.name = name;
	}

	public int getOrders() {
		return this.orders;
	}

	public void setOrders(int orders) {
		this.orders = orders;
	}

	@Override
	public boolean equals(Object other) {
		return other instanceof Customer that && Objects.equals(this.name, that.name) && this.orders == that.orders;
	}

	@Override
	public int hashCode() {
		return Objects.hash(this.name, this.orders);
	}

}
